// SPDX-License-Identifier: MIT
// TLS on a listening door (HTTP, MCP/U over TCP): what a door asks of it. The
// implementation lives in mcpud-tls.so (uplinks/tls_module.cpp), loaded only
// when a listener is configured with a certificate; the app makes a TlsServer
// there and hands it to the door, which never sees OpenSSL.
//
// A secured connection reaches the door as a plain stream socket: the server
// decrypts into one end of a socket pair and gives the door the other, so every
// door serves TLS clients with the code it serves plain ones with. Event loop only.
#pragma once

#include <array>
#include <expected>
#include <functional>
#include <string>
#include <string_view>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace mcpud::io {

// The PEM files of one listener: the certificate chain (leaf first, as certbot's
// fullchain.pem) and its private key.
struct TlsFiles {
  std::string certificate;
  std::string key;
  bool operator==(const TlsFiles&) const = default;
};

// What became of one connection handed to TlsServer::accept().
struct TlsAccepted {
  enum class Outcome {
    secured,  // `socket` carries the connection's plaintext
    not_tls,  // the client spoke first and not TLS: `socket` is the connection as accepted, unread
    failed,   // handshake failed, timed out, or too many were under way: `error` says which
  };
  Outcome outcome;
  boost::asio::ip::tcp::socket socket;  // failed: closed
  std::string error;
};

class TlsServer {
 public:
  using Accepted = std::move_only_function<void(TlsAccepted)>;

  virtual ~TlsServer() = default;
  // Handshakes on an accepted connection, then calls `done` once. Handshakes
  // under way are bounded (the excess fails at once) and each has a deadline.
  virtual void accept(boost::asio::ip::tcp::socket socket, Accepted done) = 0;
  // Reads the files again (a renewed certificate): connections made from now on
  // get it. On an error the pair in use stays, and the error names the file.
  virtual std::expected<void, std::string> reload() = 0;
  virtual const TlsFiles& files() const = 0;
  // The certificate in use, for the log: "CN=board.example, serial 1A2B, expires 2027-03-01".
  virtual std::string certificate_summary() const = 0;
};

// Answers a client that spoke plaintext to a TLS port with `reply` (which names
// what the port speaks), as far as the socket takes it without blocking, then
// closes. What the client sent is read first: closing a socket with unread
// bytes resets the connection, and the client would lose the reply.
inline void refuse_plaintext(boost::asio::ip::tcp::socket& socket, std::string_view reply) {
  boost::system::error_code ignored;
  socket.non_blocking(true, ignored);
  std::array<char, 4096> sent{};
  socket.read_some(boost::asio::buffer(sent), ignored);
  socket.write_some(boost::asio::buffer(reply), ignored);
  socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

}  // namespace mcpud::io
