// SPDX-License-Identifier: MIT
// TCP or TLS connection set-up and byte moving for the uplinks.
#include "uplink_stream.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <boost/asio/connect.hpp>

namespace mcpud::uplinks {

namespace asio = boost::asio;
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

UplinkStream::UplinkStream(asio::io_context& io, std::shared_ptr<TlsClient> tls)
    : resolver_(io), tls_client_(std::move(tls)), plain_(io) {
  if (tls_client_) tls_ = tls_client_->make_link(io);
}

tcp::socket& UplinkStream::socket() { return tls_ ? tls_->socket() : plain_; }

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
              tls_->handshake(std::move(done));
            });
      });
}

void UplinkStream::read_some(asio::mutable_buffer buffer, Transferred done) {
  if (tls_) {
    tls_->read_some(buffer, std::move(done));
  } else {
    plain_.async_read_some(buffer, std::move(done));
  }
}

void UplinkStream::write_some(asio::const_buffer buffer, Transferred done) {
  if (tls_) {
    tls_->write_some(buffer, std::move(done));
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
