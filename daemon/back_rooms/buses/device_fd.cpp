// SPDX-License-Identifier: MIT
// Why a bus device node did not open.
#include "mcpud/buses/device_fd.hpp"

#include <cerrno>
#include <cstring>

namespace mcpud::buses {

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
