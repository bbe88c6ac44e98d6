// SPDX-License-Identifier: MIT
// open + flock + TIOCEXCL, with errors a user can act on.
#include "mcpud/io/port_open.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mcpud::io {
namespace {

Error open_error(const std::string& path, int error) {
  std::string message = path + ": " + std::strerror(error);
  if (error == ENOENT || error == ENODEV || error == ENXIO)
    message += " (is the device plugged in? see serial_list_ports)";
  if (error == EACCES || error == EPERM) message += " (is mcpud's user in the dialout group?)";
  return Error::domain(DomainError::OpenError, std::move(message));
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void UniqueFd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string port_in_use_message(const std::string& path) {
  return path +
         " is already in use (held by another program, another serial session, mcpud's tty listener or an "
         "MCU bridge)";
}

Result<OpenPort> open_serial_port(const std::string& path, const PortSettings& settings) {
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (!fd) {
    // EBUSY: another open holds TIOCEXCL.
    if (errno == EBUSY) return std::unexpected(Error::domain(DomainError::PortAlreadyInUse, port_in_use_message(path)));
    return std::unexpected(open_error(path, errno));
  }
  if (!::isatty(fd.get())) {
    return std::unexpected(Error::domain(DomainError::OpenError, path + ": not a serial port (not a tty)"));
  }
  // A kernel without file locking (ENOSYS) cannot enforce the lock; that is no
  // reason to refuse the port.
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0 && errno != ENOSYS) {
    if (errno == EWOULDBLOCK) {
      return std::unexpected(Error::domain(DomainError::PortAlreadyInUse, port_in_use_message(path)));
    }
    return std::unexpected(open_error(path, errno));
  }
  if (::ioctl(fd.get(), TIOCEXCL) != 0) return std::unexpected(open_error(path, errno));
  auto effective = configure(fd.get(), settings);
  if (!effective) return std::unexpected(Error::domain(DomainError::InvalidArgument, path + ": " + effective.error()));
  return OpenPort{std::move(fd), *effective};
}

}  // namespace mcpud::io
