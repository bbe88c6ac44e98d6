// SPDX-License-Identifier: MIT
// The real system calls behind DeviceCalls.
#include "mcpud/buses/device_calls.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

Error device_open_error(int error, const std::string& path, const std::string& missing, const std::string& group,
                        const std::string& nodes) {
  if (error == ENOENT || error == ENODEV || error == ENXIO) {
    return Error::domain(DomainError::OpenError, path + " does not exist: " + missing);
  }
  if (error == EACCES || error == EPERM) {
    return Error::domain(DomainError::NotAuthorized, path + ": permission denied: mcpud's user needs the " + group +
                                                         " group (the packaged unit has SupplementaryGroups=" + group +
                                                         "; the udev rule gives " + nodes + " to group " + group + ")");
  }
  return Error::domain(DomainError::OpenError, path + ": " + std::strerror(error));
}

}  // namespace mcpud::buses
