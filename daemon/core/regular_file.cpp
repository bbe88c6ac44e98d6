// SPDX-License-Identifier: MIT
#include "mcpud/core/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mcpud {

std::expected<std::string, std::string> read_regular_file(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return std::unexpected(path + ": cannot open the file: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0) return std::unexpected(path + ": " + std::strerror(errno));
  if (S_ISDIR(status.st_mode)) return std::unexpected(path + ": is a directory, not a file");
  if (!S_ISREG(status.st_mode)) return std::unexpected(path + ": not a regular file (a device, FIFO or socket)");
  std::string text;
  char chunk[64 * 1024];
  for (;;) {
    const auto n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::unexpected(path + ": cannot read the file: " + std::strerror(errno));
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      return std::unexpected(path + ": more than the " + std::to_string(max_bytes) + " bytes it may have");
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace mcpud
