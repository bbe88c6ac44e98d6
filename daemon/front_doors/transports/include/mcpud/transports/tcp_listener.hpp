// SPDX-License-Identifier: MIT
// Accepts MCP/U (and, through the same engine, every other line dialect) clients
// on one TCP address.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <expected>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/io/acceptor.hpp"
#include "mcpud/io/tls_server.hpp"
#include "mcpud/transports/session.hpp"

namespace mcpud::transports {

class TcpListener {
 public:
  // With `tls`, every connection is TLS (the listen_tls addresses); without, plain.
  TcpListener(boost::asio::io_context& io, std::string spec, rpc::Engine& engine, SessionSet& sessions,
              const SessionLimits& limits, std::shared_ptr<io::TlsServer> tls = nullptr);

  // Binds and starts accepting. The error says which address and why.
  std::expected<void, std::string> open();
  // Stops accepting; connected clients stay (the SessionSet owns them).
  void close();

  const std::string& spec() const { return spec_; }
  // A TLS listener's certificate may change on reload: connections from now on
  // use `tls`. Whether the listener speaks TLS does not change.
  void use_tls(std::shared_ptr<io::TlsServer> tls) {
    if (tls_ && tls) tls_ = std::move(tls);
  }
  // The bound address (with the real port when the spec asked for port 0).
  std::string local_address() const;

 private:
  void accept_next();
  void secure(boost::asio::ip::tcp::socket socket, std::string peer, std::string address);

  std::string spec_;
  rpc::Engine& engine_;
  SessionSet& sessions_;
  const SessionLimits& limits_;
  std::shared_ptr<io::TlsServer> tls_;
  io::Acceptor<boost::asio::ip::tcp> acceptor_;
};

}  // namespace mcpud::transports
