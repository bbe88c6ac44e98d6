// SPDX-License-Identifier: MIT
// Arbitrary baud rates with the termios2 ioctls (BOTHER), so 921600, 1000000 or
// 250000 (DMX) work on any driver that supports them.
#include <asm/termbits.h>
#include <sys/ioctl.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <expected>
#include <string>

namespace mcpud::io {

std::expected<void, std::string> set_baud(int fd, std::uint32_t baud) {
  struct termios2 tio {};
  if (::ioctl(fd, TCGETS2, &tio) != 0) return std::unexpected(std::string("TCGETS2: ") + std::strerror(errno));
  tio.c_cflag &= ~(CBAUD | (CBAUD << IBSHIFT));
  tio.c_cflag |= BOTHER | (BOTHER << IBSHIFT);
  tio.c_ispeed = baud;
  tio.c_ospeed = baud;
  if (::ioctl(fd, TCSETS2, &tio) != 0) {
    return std::unexpected("baud rate " + std::to_string(baud) + ": " + std::strerror(errno));
  }
  return {};
}

std::expected<std::uint32_t, std::string> get_baud(int fd) {
  struct termios2 tio {};
  if (::ioctl(fd, TCGETS2, &tio) != 0) return std::unexpected(std::string("TCGETS2: ") + std::strerror(errno));
  return tio.c_ospeed;
}

}  // namespace mcpud::io
