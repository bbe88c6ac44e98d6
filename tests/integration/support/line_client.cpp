// SPDX-License-Identifier: MIT
#include "support/line_client.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pty.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include <gtest/gtest.h>

namespace mcpud::it {

LineClient::LineClient(int fd) : fd_(fd) {
  int type = 0;
  socklen_t length = sizeof type;
  is_socket_ = ::getsockopt(fd_, SOL_SOCKET, SO_TYPE, &type, &length) == 0;
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
}

LineClient::~LineClient() { close(); }

LineClient::LineClient(LineClient&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      buffer_(std::move(other.buffer_)),
      eof_(other.eof_),
      is_socket_(other.is_socket_),
      next_id_(other.next_id_) {}

LineClient& LineClient::operator=(LineClient&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    buffer_ = std::move(other.buffer_);
    eof_ = other.eof_;
    is_socket_ = other.is_socket_;
    next_id_ = other.next_id_;
  }
  return *this;
}

void LineClient::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::optional<LineClient> LineClient::connect_unix(const std::string& path) {
  sockaddr_un address{};
  if (path.size() >= sizeof address.sun_path) return std::nullopt;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  address.sun_family = AF_UNIX;
  path.copy(address.sun_path, path.size());
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  return LineClient(fd);
}

std::optional<LineClient> LineClient::connect_tcp(int port, Deadline deadline, int receive_buffer) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return std::nullopt;
  if (receive_buffer > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    if (errno != EINPROGRESS) {
      ::close(fd);
      return std::nullopt;
    }
    pollfd entry{fd, POLLOUT, 0};
    int error = 0;
    socklen_t length = sizeof error;
    if (::poll(&entry, 1, deadline.poll_ms()) != 1 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 ||
        error != 0) {
      ::close(fd);
      return std::nullopt;
    }
  }
  return LineClient(fd);
}

bool LineClient::send_raw(std::string_view bytes, Deadline deadline) {
  while (!bytes.empty()) {
    if (fd_ < 0) return false;
    const ssize_t n =
        is_socket_ ? ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) : ::write(fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;
    pollfd entry{fd_, POLLOUT, 0};
    const int ready = ::poll(&entry, 1, deadline.poll_ms());
    if (ready == 0 && deadline.expired()) return false;
    if (ready > 0 && (entry.revents & (POLLERR | POLLNVAL)) != 0) return false;
  }
  return true;
}

bool LineClient::fill(Deadline deadline) {
  if (fd_ < 0 || eof_) return false;
  for (;;) {
    std::array<char, 16 * 1024> chunk{};
    const ssize_t n = ::read(fd_, chunk.data(), chunk.size());
    if (n > 0) {
      buffer_.append(chunk.data(), static_cast<std::size_t>(n));
      return true;
    }
    if (n == 0) {
      eof_ = true;
      return false;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      eof_ = true;  // ECONNRESET on a socket, EIO on a pty whose other side is gone
      return false;
    }
    pollfd entry{fd_, POLLIN, 0};
    const int ready = ::poll(&entry, 1, deadline.poll_ms());
    if (ready == 0 && deadline.expired()) return false;
  }
}

std::optional<std::string> LineClient::read_line(Deadline deadline) {
  for (;;) {
    if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    if (!fill(deadline)) return std::nullopt;
  }
}

json LineClient::request(const json& message, Deadline deadline) {
  if (!send_line(message.dump(), deadline)) {
    ADD_FAILURE() << "could not send " << message.dump();
    return nullptr;
  }
  const auto line = read_line(deadline);
  if (!line) {
    ADD_FAILURE() << "no reply to " << message.dump();
    return nullptr;
  }
  json reply = json::parse(*line, nullptr, false);
  if (reply.is_discarded()) {
    ADD_FAILURE() << "reply is not JSON: " << *line;
    return nullptr;
  }
  return reply;
}

json LineClient::call(const std::string& method, const json& params, const json& id, Deadline deadline) {
  return request({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}, deadline);
}

json LineClient::result(const std::string& method, const json& params, Deadline deadline) {
  const int id = next_id_++;
  const json reply = call(method, params, id, deadline);
  if (!reply.is_object() || !reply.contains("result") || reply.value("id", json()) != id) {
    ADD_FAILURE() << method << " " << params.dump() << " did not succeed: " << reply.dump();
    return nullptr;
  }
  return reply["result"];
}

bool LineClient::wait_closed(Deadline deadline) {
  if (fd_ < 0) return false;
  for (;;) {
    buffer_.clear();
    if (fill(deadline)) continue;
    if (eof_) return true;
    if (deadline.expired()) return false;
  }
}

bool LineClient::silent_for(Deadline quiet) {
  if (!buffer_.empty()) return false;
  if (fd_ < 0 || eof_) return true;
  while (!quiet.expired()) {
    if (fill(quiet)) return false;
    if (eof_) return true;
  }
  return true;
}

std::optional<Pty> open_pty() {
  int master = -1;
  int slave = -1;
  std::array<char, 128> name{};
  termios raw{};
  ::cfmakeraw(&raw);
  if (::openpty(&master, &slave, name.data(), &raw, nullptr) != 0) {
    ADD_FAILURE() << "openpty: " << std::strerror(errno);
    return std::nullopt;
  }
  ::fcntl(master, F_SETFD, FD_CLOEXEC);
  ::close(slave);
  return Pty{master, name.data()};
}

json mcp_tools(LineClient& client, json params) {
  json tools = json::array();
  for (int page = 0; page < 50; ++page) {
    const json listed = client.result("tools/list", params, 10s);
    for (const auto& tool : listed["tools"]) tools.push_back(tool);
    if (!listed.contains("nextCursor")) break;
    params["cursor"] = listed["nextCursor"];
  }
  return tools;
}

}  // namespace mcpud::it
