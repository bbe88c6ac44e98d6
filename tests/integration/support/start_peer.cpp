// SPDX-License-Identifier: MIT
// The `##START` test peer: sockets, optional TLS (OpenSSL) and frame parsing.
#include "support/start_peer.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace mcpud::it {

using nlohmann::json;

StartPeer::StartPeer(std::optional<PeerTls> tls, bool listening) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ADD_FAILURE() << "cannot listen on 127.0.0.1";
    return;
  }
  port_ = ntohs(address.sin_port);
  if (listening) listen();
  if (tls) {
    tls_ = SSL_CTX_new(TLS_server_method());
    if (SSL_CTX_use_certificate_chain_file(tls_, tls->certificate_file.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(tls_, tls->key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
      ADD_FAILURE() << "cannot load the test certificate " << tls->certificate_file;
    }
  }
}

StartPeer::~StartPeer() {
  drop();
  if (tls_) SSL_CTX_free(tls_);
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

void StartPeer::drop() {
  if (ssl_) {
    SSL_free(ssl_);
    ssl_ = nullptr;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buffer_.clear();
  eof_ = false;
}

void StartPeer::listen() {
  if (::listen(listen_fd_, 4) != 0) ADD_FAILURE() << "cannot listen on " << address();
}

void StartPeer::shrink_receive_buffer() {
  const int bytes = 4096;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
}

bool StartPeer::accept(Deadline deadline) {
  drop();
  pollfd p{listen_fd_, POLLIN, 0};
  if (::poll(&p, 1, deadline.poll_ms()) != 1) return false;
  fd_ = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd_ < 0) return false;
  accepted_at_ = std::chrono::steady_clock::now();
  const int one = 1;  // small writes leave one by one (a frame sent byte by byte stays split)
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (!tls_) return true;
  timeval timeout{deadline.poll_ms() / 1000 + 1, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ssl_ = SSL_new(tls_);
  SSL_set_fd(ssl_, fd_);
  if (SSL_accept(ssl_) != 1) {
    drop();
    return false;
  }
  return true;
}

long StartPeer::read_some(char* data, std::size_t size) {
  if (!ssl_) return ::read(fd_, data, size);
  const int n = SSL_read(ssl_, data, static_cast<int>(size));
  if (n > 0) return n;
  return SSL_get_error(ssl_, n) == SSL_ERROR_WANT_READ ? -2 : 0;
}

bool StartPeer::fill(Deadline deadline) {
  if (fd_ < 0 || eof_) return false;
  if (!(ssl_ && SSL_pending(ssl_) > 0)) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, deadline.poll_ms()) != 1) return false;
  }
  char data[8192];
  const long n = read_some(data, sizeof data);
  if (n == -2) return true;  // a TLS record still incomplete
  if (n <= 0) {
    eof_ = true;
    return false;
  }
  buffer_.append(data, static_cast<std::size_t>(n));
  return true;
}

std::optional<PeerFrame> StartPeer::parse_one() {
  const auto start = buffer_.find("##START");
  if (start == std::string::npos) return std::nullopt;
  const auto end = buffer_.find("##END", start + 20);
  if (end == std::string::npos) return std::nullopt;
  PeerFrame frame;
  frame.type = static_cast<std::uint8_t>(buffer_[start + 7]);
  frame.task_id = buffer_.substr(start + 8, 8);
  frame.seq = buffer_.substr(start + 16, 4);
  frame.content = buffer_.substr(start + 20, end - start - 20);
  buffer_.erase(0, end + 5);
  return frame;
}

std::optional<PeerFrame> StartPeer::next_frame(Deadline deadline) {
  for (;;) {
    if (auto frame = parse_one()) return frame;
    if (deadline.expired() || !fill(deadline)) {
      if (auto frame = parse_one()) return frame;
      return std::nullopt;
    }
  }
}

std::optional<PeerFrame> StartPeer::wait_for(const std::function<bool(const PeerFrame&)>& match, Deadline deadline) {
  while (auto frame = next_frame(deadline)) {
    if (match(*frame)) return frame;
  }
  return std::nullopt;
}

std::optional<PeerFrame> StartPeer::wait_for_mcp(const std::string& type, Deadline deadline) {
  return wait_for([&](const PeerFrame& f) { return f.type == 0x06 && f.json().value("type", "") == type; }, deadline);
}

bool StartPeer::send_raw(std::string_view bytes) {
  while (!bytes.empty()) {
    const long n = ssl_ ? SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size()))
                        : ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool StartPeer::send_frame(std::uint8_t type, std::string_view task_id, std::string_view seq,
                           std::string_view content) {
  std::string frame = "##START";
  frame += static_cast<char>(type);
  frame.append(task_id).append(seq).append(content).append("##END");
  return send_raw(frame);
}

bool StartPeer::send_call(const json& data) {
  return send_frame(0x06, "mcp00001", "0000", json{{"type", "call"}, {"data", data}}.dump());
}

json StartPeer::call(const std::string& call_id, const std::string& method, const json& params, Deadline deadline) {
  if (!send_call({{"call_id", call_id}, {"method", method}, {"params", params}})) return nullptr;
  const auto result = wait_for(
      [&](const PeerFrame& f) {
        const auto j = f.json();
        return f.type == 0x06 && j.value("type", "") == "result" && j["data"].value("call_id", json()) == call_id;
      },
      deadline);
  return result ? result->json()["data"]["result"] : json();
}

bool StartPeer::wait_closed(Deadline deadline) {
  while (fill(deadline)) buffer_.clear();
  return eof_;
}

}  // namespace mcpud::it
