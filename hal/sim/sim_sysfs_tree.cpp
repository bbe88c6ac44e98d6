// SPDX-License-Identifier: MIT
// A temporary directory standing in for /sys.
#include "sim_sysfs_tree.hpp"

#include <signal.h>
#include <stdlib.h>  // mkdtemp
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <system_error>

namespace mcpud::hal::sim {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPrefix = "mcpud-sim-";

// Trees whose mcpud is gone (killed before it could remove its own). Another
// user's cannot be removed (the sticky temporary directory): they are left.
void remove_abandoned(const fs::path& parent) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const auto name = entry.path().filename().string();
    if (!name.starts_with(kPrefix)) continue;
    const auto pid = std::atol(name.c_str() + kPrefix.size());
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

fs::path make_temporary_directory(const fs::path& parent) {
  remove_abandoned(parent);
  std::string pattern = (parent / (std::string(kPrefix) + std::to_string(::getpid()) + "-XXXXXX")).string();
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
