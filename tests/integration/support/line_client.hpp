// SPDX-License-Identifier: MIT
// Blocking newline-delimited JSON-RPC clients for the integration tests: one
// class over any stream fd (a TCP socket or a pty master), every wait bounded by
// a deadline through poll().
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "support/deadline.hpp"

namespace mcpud::it {

using nlohmann::json;

class LineClient {
 public:
  // Takes ownership of `fd` (closed on destruction).
  explicit LineClient(int fd);
  ~LineClient();
  LineClient(LineClient&& other) noexcept;
  LineClient& operator=(LineClient&& other) noexcept;
  LineClient(const LineClient&) = delete;

  // Connects to 127.0.0.1:port. `receive_buffer` > 0 shrinks SO_RCVBUF first.
  static std::optional<LineClient> connect_tcp(int port, Deadline deadline = 5s, int receive_buffer = 0);
  // Connects to the unix socket at `path` (blocking: a local connect does not wait).
  static std::optional<LineClient> connect_unix(const std::string& path);

  // Writes all of `bytes`; false if the peer is gone or the deadline passed.
  bool send_raw(std::string_view bytes, Deadline deadline = 5s);
  bool send_line(std::string_view line, Deadline deadline = 5s) { return send_raw(std::string(line) + "\n", deadline); }
  // The next line without its "\n" (a trailing "\r" is kept: the tests check it
  // is absent); nullopt on timeout, end of stream or error.
  std::optional<std::string> read_line(Deadline deadline = 5s);
  // Sends one request line and parses the next line; null json if none arrived
  // or it is not JSON (the test fails in that case).
  json request(const json& message, Deadline deadline = 5s);
  json call(const std::string& method, const json& params = json::object(), const json& id = 1, Deadline deadline = 5s);
  // Like call(), but returns result, failing the test on an error reply.
  json result(const std::string& method, const json& params = json::object(), Deadline deadline = 5s);

  // Reads and discards until the peer closes (true) or the deadline passes.
  bool wait_closed(Deadline deadline = 5s);
  // True if nothing at all arrives within `quiet` (a short wait, used sparingly).
  bool silent_for(Deadline quiet);

  bool at_eof() const { return eof_; }
  int fd() const { return fd_; }
  void close();

 private:
  // Reads what is available into buffer_; false on timeout, EOF or error.
  bool fill(Deadline deadline);

  int fd_ = -1;
  std::string buffer_;
  bool eof_ = false;
  bool is_socket_ = false;
  int next_id_ = 1000;
};

// Every tool of MCP's tools/list, page after page (`params` as the first
// page's, e.g. withUserTools).
json mcp_tools(LineClient& client, json params = json::object());

// A pseudo-terminal pair; the test keeps the master, mcpud opens the slave by path.
struct Pty {
  int master = -1;
  std::string slave_path;  // /dev/pts/N
};
// openpty() with the slave closed again (mcpud opens it by path). nullopt on failure.
std::optional<Pty> open_pty();

}  // namespace mcpud::it
