// SPDX-License-Identifier: MIT
// A test peer that plays the AI server of the `##START` services protocol: it
// listens on 127.0.0.1 (port 0), accepts the daemon's connection (TCP, or TLS
// with a given certificate), reads frames with its own small parser and sends
// frames or raw bytes. Blocking, every wait bounded by a deadline.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "support/deadline.hpp"

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace mcpud::it {

struct PeerFrame {
  std::uint8_t type = 0;
  std::string task_id;
  std::string seq;
  std::string content;
  // content parsed as JSON (discarded when it is not JSON).
  nlohmann::json json() const { return nlohmann::json::parse(content, nullptr, false); }
};

struct PeerTls {
  std::string certificate_file;  // PEM chain of the server
  std::string key_file;
};

class StartPeer {
 public:
  // `listening` false: the port is bound but refuses connections until listen().
  explicit StartPeer(std::optional<PeerTls> tls = std::nullopt, bool listening = true);
  ~StartPeer();
  StartPeer(const StartPeer&) = delete;
  StartPeer& operator=(const StartPeer&) = delete;

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  void listen();
  // Connections accepted from now on get a tiny receive buffer: a server that
  // reads slowly.
  void shrink_receive_buffer();
  // Waits for the daemon to connect (closing any previous connection first).
  bool accept(Deadline deadline = 10s);
  std::chrono::steady_clock::time_point accepted_at() const { return accepted_at_; }
  // The next frame; nullopt on timeout or when the daemon closed the connection.
  std::optional<PeerFrame> next_frame(Deadline deadline = 10s);
  // The next frame `match` accepts; the frames before it are dropped.
  std::optional<PeerFrame> wait_for(const std::function<bool(const PeerFrame&)>& match, Deadline deadline = 10s);
  // The next MCP (0x06) frame whose JSON has "type" == `type`.
  std::optional<PeerFrame> wait_for_mcp(const std::string& type, Deadline deadline = 10s);

  bool send_raw(std::string_view bytes);
  bool send_frame(std::uint8_t type, std::string_view task_id, std::string_view seq, std::string_view content);
  // Sends {"type":"call","data":{...data}} under TaskID mcp00001, Seq 0000.
  bool send_call(const nlohmann::json& data);
  // Sends a call and returns data.result of the result with the same call_id.
  nlohmann::json call(const std::string& call_id, const std::string& method, const nlohmann::json& params,
                      Deadline deadline = 10s);
  // Reads and discards until the daemon closes the connection.
  bool wait_closed(Deadline deadline = 10s);
  void drop();

 private:
  bool fill(Deadline deadline);
  std::optional<PeerFrame> parse_one();
  long read_some(char* data, std::size_t size);

  int listen_fd_ = -1;
  int fd_ = -1;
  int port_ = 0;
  SSL_CTX* tls_ = nullptr;
  SSL* ssl_ = nullptr;
  std::string buffer_;
  bool eof_ = false;
  std::chrono::steady_clock::time_point accepted_at_;
};

}  // namespace mcpud::it
