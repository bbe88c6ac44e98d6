// SPDX-License-Identifier: MIT
// The simulated board's own sysfs: a directory made for it under the system's
// temporary directory (mcpud-sim-<pid>-XXXXXX), holding the files the kernel
// would show for its devices, and removed when the last user lets it go; one
// that a killed mcpud left behind is removed by the next.
// Its files are written by one thread each (a device's own files by the
// thread that reads that device) and replaced whole, so a reader never sees
// half of one.
#pragma once

#include <filesystem>
#include <string>

namespace mcpud::hal::sim {

class SimSysfsTree {
 public:
  // Throws std::filesystem::filesystem_error when `parent` takes no directory.
  explicit SimSysfsTree(const std::filesystem::path& parent);
  ~SimSysfsTree();
  SimSysfsTree(const SimSysfsTree&) = delete;
  SimSysfsTree& operator=(const SimSysfsTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  // Writes `text` to `relative` (creating its directories) through a file
  // renamed into place. Throws on failure.
  void write(const std::string& relative, const std::string& text) const;
  // Makes the directory `relative` with its parents.
  void make_directory(const std::string& relative) const;
  // Makes `relative` a symbolic link to `target` (as written, often relative).
  void link(const std::string& relative, const std::string& target) const;

 private:
  std::filesystem::path root_;
};

}  // namespace mcpud::hal::sim
