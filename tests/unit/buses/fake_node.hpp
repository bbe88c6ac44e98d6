// SPDX-License-Identifier: MIT
// The part of a fake device node every fake bus shares: it opens at one path
// (or fails with a chosen errno) and counts what is open, so a test can check
// that every call closes what it opened. Single-threaded, like the tools.
#pragma once

#include <cerrno>
#include <string>

#include "mcpud/hal/device_nodes.hpp"

namespace mcpud::buses::testing {

class FakeNode : public hal::DeviceNodes {
 public:
  FakeNode(std::string node_path, int fd) : path(std::move(node_path)), fd_(fd) {}

  std::string path;
  int open_error = 0;  // errno open() fails with, when set
  int open_fds = 0;

  int open(const std::string& p) override {
    if (open_error) return -open_error;
    if (p != path) return -ENOENT;
    ++open_fds;
    return fd_;
  }
  void close(int) override { --open_fds; }

 private:
  int fd_;
};

}  // namespace mcpud::buses::testing
