// SPDX-License-Identifier: MIT
// The character devices the bus tools drive with ioctls, /dev/i2c-N (i2c-dev)
// and /dev/spidevB.C (spidev): the kernel's, or the simulated board's, which
// answers the same ioctls with the same structures and errno values, so
// everything above this interface is one code for both.
// The kernel's may be used from any thread; the simulated board's from the
// event loop only.
#pragma once

#include <string>

namespace mcpud::hal {

class DeviceNodes {
 public:
  virtual ~DeviceNodes() = default;
  // Opens `path` for reading and writing: a descriptor, or -errno.
  virtual int open(const std::string& path) = 0;
  // ioctl(2) on a descriptor open() gave: what it returns (>= 0), or -errno.
  virtual int ioctl(int fd, unsigned long request, void* arg) = 0;
  virtual void close(int fd) = 0;
};

// The kernel's device nodes: open(2) (O_RDWR | O_CLOEXEC | O_NOCTTY),
// ioctl(2) (retried on EINTR) and close(2).
DeviceNodes& kernel_device_nodes();

}  // namespace mcpud::hal
