// SPDX-License-Identifier: MIT
// open + flock + TIOCEXCL, with errors a user can act on.
#include "mcpud/io/port_open.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
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

Result<UniqueFd> open_fd(const std::string& path, int extra_flags) {
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | extra_flags));
  if (fd) return fd;
  // EBUSY: another open holds TIOCEXCL.
  if (errno == EBUSY) return std::unexpected(Error::domain(DomainError::PortAlreadyInUse, port_in_use_message(path)));
  return std::unexpected(open_error(path, errno));
}

// Locks an open tty and puts it in raw mode with `settings`.
Result<OpenPort> take_port(UniqueFd fd, const std::string& path, const PortSettings& settings) {
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
  auto fd = open_fd(path, 0);
  if (!fd) return std::unexpected(fd.error());
  if (!::isatty(fd->get())) {
    return std::unexpected(Error::domain(DomainError::OpenError, path + ": not a serial port (not a tty)"));
  }
  return take_port(std::move(*fd), path, settings);
}

Result<OpenPort> open_serial_device(const TtyDevice& device, const PortSettings& settings) {
  auto fd = open_fd(device.path, O_NOFOLLOW);
  if (!fd) return std::unexpected(fd.error());
  // The node was replaced between the check and the open (a device unplugged
  // and another one plugged in, or a race on purpose): not what was checked.
  struct stat st {};
  if (::fstat(fd->get(), &st) != 0 || !S_ISCHR(st.st_mode) || st.st_rdev != device.device || !::isatty(fd->get())) {
    return std::unexpected(Error::domain(DomainError::OpenError, device.path + " changed while it was opened"));
  }
  return take_port(std::move(*fd), device.path, settings);
}

}  // namespace mcpud::io
