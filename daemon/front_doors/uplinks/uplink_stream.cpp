// SPDX-License-Identifier: MIT
// TCP or TLS connection set-up and byte moving for the uplinks.
#include "uplink_stream.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>

namespace mcpud::uplinks {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using asio::ip::tcp;

namespace {

// A server that vanished without a FIN (power cut, NAT timeout) is noticed by
// the kernel within about two minutes, with no timer of mcpud's own: keepalive
// probes on an idle link, and a bound on how long sent data may stay unacknowledged.
void detect_dead_peer(tcp::socket& socket) {
  const int fd = socket.native_handle();
  const int idle_s = 60, interval_s = 10, probes = 6, unacked_ms = 90'000;
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval_s, sizeof interval_s);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
  ::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &unacked_ms, sizeof unacked_ms);
}

}  // namespace

std::shared_ptr<ssl::context> make_tls_context(const TlsOptions& options) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                       ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  if (options.ca_file.empty()) {
    context->set_default_verify_paths();
  } else {
    context->load_verify_file(options.ca_file);
  }
  context->set_verify_mode(ssl::verify_peer);
  context->set_verify_callback(ssl::host_name_verification(options.server_name));
  return context;
}

UplinkStream::UplinkStream(asio::io_context& io, std::shared_ptr<ssl::context> tls, std::string server_name)
    : resolver_(io), tls_context_(std::move(tls)), server_name_(std::move(server_name)), plain_(io) {
  if (tls_context_) tls_ = std::make_unique<ssl::stream<tcp::socket>>(io, *tls_context_);
}

tcp::socket& UplinkStream::socket() { return tls_ ? tls_->next_layer() : plain_; }

void UplinkStream::connect(const std::string& host, std::uint16_t port, Done done) {
  resolver_.async_resolve(
      host, std::to_string(port),
      [this, done = std::move(done)](boost::system::error_code ec,
                                     const tcp::resolver::results_type& endpoints) mutable {
        if (ec) return done(ec);
        asio::async_connect(
            socket(), endpoints,
            [this, done = std::move(done)](boost::system::error_code ec, const tcp::endpoint& peer) mutable {
              if (ec) return done(ec);
              peer_ = peer.address().to_string() + ":" + std::to_string(peer.port());
              boost::system::error_code ignored;
              socket().set_option(tcp::no_delay(true), ignored);
              socket().set_option(asio::socket_base::keep_alive(true), ignored);
              detect_dead_peer(socket());
              if (!tls_) return done({});
              handshake(std::move(done));
            });
      });
}

void UplinkStream::handshake(Done done) {
  // SNI: servers with several names pick the certificate by it (names only, not addresses).
  boost::system::error_code not_an_address;
  asio::ip::make_address(server_name_, not_an_address);
  if (not_an_address && !SSL_set_tlsext_host_name(tls_->native_handle(), server_name_.c_str())) {
    return done(boost::system::error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category()));
  }
  tls_->async_handshake(ssl::stream_base::client, std::move(done));
}

void UplinkStream::read_some(asio::mutable_buffer buffer, Transferred done) {
  if (tls_) {
    tls_->async_read_some(buffer, std::move(done));
  } else {
    plain_.async_read_some(buffer, std::move(done));
  }
}

void UplinkStream::write_some(asio::const_buffer buffer, Transferred done) {
  if (tls_) {
    tls_->async_write_some(buffer, std::move(done));
  } else {
    plain_.async_write_some(buffer, std::move(done));
  }
}

void UplinkStream::close() {
  resolver_.cancel();
  boost::system::error_code ignored;
  socket().shutdown(tcp::socket::shutdown_both, ignored);
  socket().close(ignored);
}

}  // namespace mcpud::uplinks
