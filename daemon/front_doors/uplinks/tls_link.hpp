// SPDX-License-Identifier: MIT
// TLS for the uplinks and the listening doors, from a module of its own
// (mcpud-tls.so, tls_module.cpp) that mcpud loads the first time an uplink or a
// listener asks for TLS: linked into mcpud, OpenSSL would be mapped, and its
// relocation tables read, by every daemon (the largest part of an idle one's
// memory) though most boards configure no TLS. The module
// is built from the same sources with the same Asio definitions as mcpud; these
// interfaces are all the two share. Event loop only.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "mcpud/io/tls_server.hpp"
#include "message_link.hpp"
#include "ws_link.hpp"

namespace mcpud::uplinks {

struct TlsOptions {
  std::string ca_file;      // PEM bundle; empty: the system's default CA paths
  std::string server_name;  // checked against the certificate and sent as SNI (if not an address)
};

// One TLS client connection over a TCP socket the caller connects.
class TlsLink {
 public:
  using Done = std::function<void(boost::system::error_code)>;
  using Transferred = std::function<void(boost::system::error_code, std::size_t)>;

  virtual ~TlsLink() = default;
  virtual boost::asio::ip::tcp::socket& socket() = 0;
  virtual void handshake(Done done) = 0;
  virtual void read_some(boost::asio::mutable_buffer buffer, Transferred done) = 0;
  virtual void write_some(boost::asio::const_buffer buffer, Transferred done) = 0;
};

// A TLS client set-up (CA loaded, peer verification on) that makes links.
class TlsClient {
 public:
  virtual ~TlsClient() = default;
  virtual std::unique_ptr<TlsLink> make_link(boost::asio::io_context& io) = 0;
};

// What the module offers.
class TlsModule {
 public:
  virtual ~TlsModule() = default;
  // A client set-up; throws std::runtime_error when the CA file cannot be loaded.
  virtual std::shared_ptr<TlsClient> make_client(const TlsOptions& options) = 0;
  // A wss:// MessageLink (ws_link_impl.hpp).
  virtual std::shared_ptr<MessageLink> make_ws_link(boost::asio::io_context& io, WsOptions options) = 0;
  // TLS for a listener (io/tls_server.hpp); throws std::runtime_error naming the
  // file that cannot be read or used.
  virtual std::shared_ptr<io::TlsServer> make_server(const io::TlsFiles& files) = 0;
};

// The module, loaded the first time it is asked for and kept; throws
// std::runtime_error saying why it cannot be had (where it was looked for).
TlsModule& tls_module();

// The module's one entry point: the module, or null with `error` set. It refuses
// a caller of another mcpud version (`mcpud_version`): the two must agree on
// these classes and on Asio's.
using TlsModuleEntry = TlsModule* (*)(const char* mcpud_version, std::string& error);
inline constexpr const char* kTlsModuleEntry = "mcpud_tls_module_v1";
inline constexpr const char* kTlsModuleFile = "mcpud-tls.so";

}  // namespace mcpud::uplinks
