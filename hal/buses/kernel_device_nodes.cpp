// SPDX-License-Identifier: MIT
// The kernel's device nodes behind DeviceNodes: plain system calls.
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

#include "mcpud/hal/device_nodes.hpp"

namespace mcpud::hal {
namespace {

class KernelDeviceNodes final : public DeviceNodes {
 public:
  int open(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY);
    return fd >= 0 ? fd : -errno;
  }
  int ioctl(int fd, unsigned long request, void* arg) override {
    int result = 0;
    do {
      result = ::ioctl(fd, request, arg);
    } while (result < 0 && errno == EINTR);
    return result >= 0 ? result : -errno;
  }
  void close(int fd) override { ::close(fd); }
};

}  // namespace

DeviceNodes& kernel_device_nodes() {
  static KernelDeviceNodes nodes;  // no state: the kernel holds it
  return nodes;
}

}  // namespace mcpud::hal
