// SPDX-License-Identifier: MIT
// The byte stream an uplink dials: TCP, or TLS over TCP (tls_link.hpp: the TLS
// module) with the server's certificate checked against a CA file or the
// system store and its name against the configured host. Only moves bytes.
// Event loop only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/ip/tcp.hpp>

#include "tls_link.hpp"

namespace mcpud::uplinks {

class UplinkStream {
 public:
  using Done = TlsLink::Done;
  using Transferred = TlsLink::Transferred;

  // `tls` null: plain TCP.
  UplinkStream(boost::asio::io_context& io, std::shared_ptr<TlsClient> tls);

  // Resolves, connects and (with TLS) handshakes; `done` runs once.
  void connect(const std::string& host, std::uint16_t port, Done done);
  void read_some(boost::asio::mutable_buffer buffer, Transferred done);
  // Writes what the connection takes now (at least one byte) in one system call.
  void write_some(boost::asio::const_buffer buffer, Transferred done);
  // Cancels everything pending; completions see operation_aborted.
  void close();

  std::string peer() const { return peer_; }

 private:
  boost::asio::ip::tcp::socket& socket();

  boost::asio::ip::tcp::resolver resolver_;
  std::shared_ptr<TlsClient> tls_client_;  // outlives tls_, which it made
  boost::asio::ip::tcp::socket plain_;
  std::unique_ptr<TlsLink> tls_;
  std::string peer_;
};

}  // namespace mcpud::uplinks
