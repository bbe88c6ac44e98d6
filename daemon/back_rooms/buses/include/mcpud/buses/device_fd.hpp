// SPDX-License-Identifier: MIT
// An open /dev/i2c-N or /dev/spidevB.C on the board's device nodes (the
// kernel's, the simulated board's, or a fake in tests), closed when it goes,
// and the error that says why one did not open.
// Event loop only, like the tools that use it.
#pragma once

#include <string>

#include "mcpud/core/error.hpp"
#include "mcpud/hal/device_nodes.hpp"

namespace mcpud::buses {

// Why `path` did not open (`error`, a positive errno). Absent: OPEN_ERROR, with
// `missing` saying how to get the device. Denied: NOT_AUTHORIZED, naming `group`,
// which the udev rule gives `nodes` to.
Error device_open_error(int error, const std::string& path, const std::string& missing, const std::string& group,
                        const std::string& nodes);

class DeviceFd {
 public:
  DeviceFd(hal::DeviceNodes& nodes, int fd) : nodes_(&nodes), fd_(fd) {}
  ~DeviceFd() {
    if (fd_ >= 0) nodes_->close(fd_);
  }
  DeviceFd(const DeviceFd&) = delete;
  DeviceFd& operator=(const DeviceFd&) = delete;

  int get() const { return fd_; }
  // ioctl on this descriptor: >= 0, or -errno.
  int ioctl(unsigned long request, void* arg) const { return nodes_->ioctl(fd_, request, arg); }

 private:
  hal::DeviceNodes* nodes_;
  int fd_;
};

}  // namespace mcpud::buses
