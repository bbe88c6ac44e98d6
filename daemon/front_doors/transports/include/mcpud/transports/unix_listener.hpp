// SPDX-License-Identifier: MIT
// Serves every line dialect (MCP/U, MCP, the envelope) on a unix stream socket,
// the door local AI hosts reach through mcpud-stdio. Access is by file mode and
// group of the socket.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstddef>
#include <expected>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/io/acceptor.hpp"
#include "mcpud/transports/session.hpp"

namespace mcpud::transports {

// The longest path a unix socket can have (sockaddr_un::sun_path less its NUL).
inline constexpr std::size_t kMaxUnixPathBytes = 107;

// From [unix_socket] (or --unix).
struct UnixSocketOptions {
  std::string path;
  std::string group;  // "" keeps the daemon's group
  unsigned mode{};
};

class UnixListener {
 public:
  UnixListener(boost::asio::io_context& io, UnixSocketOptions options, rpc::Engine& engine, SessionSet& sessions,
               const SessionLimits& limits);
  ~UnixListener();

  // Binds (replacing a stale socket file, refusing a live one), sets mode and
  // group, and starts accepting. The error says which path and why.
  std::expected<void, std::string> open();
  // Stops accepting and removes the socket file; connected clients stay.
  void close();

  const UnixSocketOptions& options() const { return options_; }

 private:
  void accept_next();

  UnixSocketOptions options_;
  rpc::Engine& engine_;
  SessionSet& sessions_;
  const SessionLimits& limits_;
  io::Acceptor<boost::asio::local::stream_protocol> acceptor_;
  bool bound_ = false;
};

}  // namespace mcpud::transports
