// SPDX-License-Identifier: MIT
// The real system calls behind DeviceCalls.
#include "mcpud/buses/device_calls.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

namespace mcpud::buses {

DeviceCalls system_calls() {
  return {[](const std::string& path) {
            const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY);
            return fd >= 0 ? fd : -errno;
          },
          [](int fd, unsigned long request, void* arg) {
            int result = 0;
            do {
              result = ::ioctl(fd, request, arg);
            } while (result < 0 && errno == EINTR);
            return result >= 0 ? result : -errno;
          },
          [](int fd) { ::close(fd); }};
}

}  // namespace mcpud::buses
