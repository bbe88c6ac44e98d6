// SPDX-License-Identifier: MIT
// The byte stream an uplink dials: TCP, or TLS over TCP (Boost.Asio SSL over
// OpenSSL) with the server's certificate checked against a CA file or the
// system store and its name against the configured host. Only moves bytes.
// Event loop only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>

namespace mcpud::uplinks {

struct TlsOptions {
  std::string ca_file;      // PEM bundle; empty: the system's default CA paths
  std::string server_name;  // checked against the certificate and sent as SNI
};

// A TLS client context that verifies the peer; throws boost::system::system_error
// when the CA file cannot be loaded.
std::shared_ptr<boost::asio::ssl::context> make_tls_context(const TlsOptions& options);

class UplinkStream {
 public:
  using Done = std::function<void(boost::system::error_code)>;
  using Transferred = std::function<void(boost::system::error_code, std::size_t)>;

  // `tls` null: plain TCP.
  UplinkStream(boost::asio::io_context& io, std::shared_ptr<boost::asio::ssl::context> tls, std::string server_name);

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
  void handshake(Done done);

  boost::asio::ip::tcp::resolver resolver_;
  std::shared_ptr<boost::asio::ssl::context> tls_context_;
  std::string server_name_;
  boost::asio::ip::tcp::socket plain_;
  std::unique_ptr<boost::asio::ssl::stream<boost::asio::ip::tcp::socket>> tls_;
  std::string peer_;
};

}  // namespace mcpud::uplinks
