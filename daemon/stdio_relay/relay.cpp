// SPDX-License-Identifier: MIT
// poll()-driven two-way copy with bounded buffers.
#include "relay.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mcpud::stdio_relay {
namespace {

constexpr std::size_t kBufferBytes = 64 * 1024;
// Writes to the host's pipe stay below one pipe page, so a blocking stdout never stalls the relay.
constexpr std::size_t kChunkBytes = 4096;

// One direction of the relay.
struct Pipe {
  int from;
  int to;
  std::string buffer;
  bool eof = false;

  bool wants_read() const { return !eof && buffer.size() < kBufferBytes; }
  bool wants_write() const { return !buffer.empty(); }

  // False on a read error; sets eof at end of input.
  bool read_some() {
    char chunk[16 * 1024];
    const ssize_t n = ::read(from, chunk, sizeof chunk);
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    if (n == 0) eof = true;
    buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  // False when the reader is gone.
  bool write_some() {
    const ssize_t n = ::write(to, buffer.data(), std::min(buffer.size(), kChunkBytes));
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    buffer.erase(0, static_cast<std::size_t>(n));
    return true;
  }
};

}  // namespace

int connect_unix(const std::string& path, std::string& error) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) {
    error = "socket path too long: " + path;
    return -1;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    error = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

int relay(int in_fd, int out_fd, int socket_fd, std::string& error) {
  ::fcntl(socket_fd, F_SETFL, ::fcntl(socket_fd, F_GETFL) | O_NONBLOCK);
  Pipe up{in_fd, socket_fd, {}};
  Pipe down{socket_fd, out_fd, {}};
  bool write_side_open = true;
  while (true) {
    if (up.eof && !up.wants_write() && write_side_open) {
      ::shutdown(socket_fd, SHUT_WR);  // the daemon answers what it has, then closes
      write_side_open = false;
    }
    if (down.eof && !down.wants_write()) return 0;
    pollfd fds[3] = {
        {in_fd, static_cast<short>(up.wants_read() ? POLLIN : 0), 0},
        {socket_fd, static_cast<short>((down.wants_read() ? POLLIN : 0) | (up.wants_write() ? POLLOUT : 0)), 0},
        {out_fd, static_cast<short>(down.wants_write() ? POLLOUT : 0), 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      error = std::string("poll: ") + std::strerror(errno);
      return 1;
    }
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) && !up.read_some()) up.eof = true;
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      if (down.wants_read() && !down.read_some()) {
        error = "connection to mcpud failed: " + std::string(std::strerror(errno));
        return 1;
      }
      if ((fds[1].revents & POLLERR) && !down.wants_read()) return 0;
    }
    if ((fds[1].revents & POLLOUT) && !up.write_some()) {
      error = "mcpud closed the connection: " + std::string(std::strerror(errno));
      return 1;
    }
    if ((fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) && (!down.write_some() || (fds[2].revents & POLLERR)))
      return 0;
  }
}

}  // namespace mcpud::stdio_relay
