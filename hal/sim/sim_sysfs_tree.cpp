// SPDX-License-Identifier: MIT
// A temporary directory standing in for /sys.
#include "sim_sysfs_tree.hpp"

#include <stdlib.h>  // mkdtemp
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <fstream>
#include <system_error>

namespace mcpud::hal::sim {
namespace {

namespace fs = std::filesystem;

fs::path make_temporary_directory(const fs::path& parent) {
  std::string pattern = (parent / "mcpud-sim-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw fs::filesystem_error("cannot make the simulated board's sysfs tree", pattern,
                               std::error_code(errno, std::generic_category()));
  }
  return pattern;
}

}  // namespace

SimSysfsTree::SimSysfsTree(const fs::path& parent) : root_(make_temporary_directory(parent)) {}

SimSysfsTree::~SimSysfsTree() {
  std::error_code ignored;
  fs::remove_all(root_, ignored);
}

void SimSysfsTree::make_directory(const std::string& relative) const { fs::create_directories(root_ / relative); }

void SimSysfsTree::write(const std::string& relative, const std::string& text) const {
  static std::atomic<unsigned> serial{0};  // each replacement its own temporary name
  const fs::path path = root_ / relative;
  fs::create_directories(path.parent_path());
  const fs::path temporary = path.parent_path() / ("." + path.filename().string() + "." + std::to_string(::getpid()) +
                                                   "." + std::to_string(serial++));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      throw fs::filesystem_error("cannot write", temporary, std::error_code(EIO, std::generic_category()));
    }
  }
  fs::rename(temporary, path);
}

void SimSysfsTree::link(const std::string& relative, const std::string& target) const {
  const fs::path path = root_ / relative;
  fs::create_directories(path.parent_path());
  fs::create_symlink(target, path);
}

}  // namespace mcpud::hal::sim
