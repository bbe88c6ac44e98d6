// SPDX-License-Identifier: MIT
// The system calls the bus tools make on /dev/i2c-N and /dev/spidevB.C (open,
// ioctl, close), as a table a test can replace with a fake device.
// Plain data; the functions of system_calls() may be called from any thread.
#pragma once

#include <functional>
#include <string>

#include "mcpud/core/error.hpp"

namespace mcpud::buses {

struct DeviceCalls {
  // A descriptor, or -errno.
  std::function<int(const std::string& path)> open;
  // What ioctl(2) returns when it succeeds (>= 0), or -errno.
  std::function<int(int fd, unsigned long request, void* arg)> ioctl;
  std::function<void(int fd)> close;
};

// The real ones: open(O_RDWR | O_CLOEXEC), ioctl(2), close(2).
DeviceCalls system_calls();

// Why `path` did not open (`error`, a positive errno). Absent: OPEN_ERROR, with
// `missing` saying how to get the device. Denied: NOT_AUTHORIZED, naming `group`,
// which the udev rule gives `nodes` to.
Error device_open_error(int error, const std::string& path, const std::string& missing, const std::string& group,
                        const std::string& nodes);

// An open device, closed when it goes. Event loop only, like its calls.
class DeviceFd {
 public:
  DeviceFd(const DeviceCalls& calls, int fd) : calls_(&calls), fd_(fd) {}
  ~DeviceFd() {
    if (fd_ >= 0) calls_->close(fd_);
  }
  DeviceFd(const DeviceFd&) = delete;
  DeviceFd& operator=(const DeviceFd&) = delete;

  int get() const { return fd_; }
  // ioctl on this descriptor: >= 0, or -errno.
  int ioctl(unsigned long request, void* arg) const { return calls_->ioctl(fd_, request, arg); }

 private:
  const DeviceCalls* calls_;
  int fd_;
};

}  // namespace mcpud::buses
