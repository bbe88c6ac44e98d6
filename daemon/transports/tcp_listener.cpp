// SPDX-License-Identifier: MIT
// TCP accept loop with a cap on connected clients.
#include "transports/tcp_listener.hpp"

#include <charconv>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/v6_only.hpp>

#include "mcpud/core/log.hpp"
#include "transports/line_session.hpp"

namespace mcpud::transports {
namespace {

using boost::asio::ip::tcp;

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const auto host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return host + ":" + std::to_string(endpoint.port());
}

}  // namespace

std::expected<tcp::endpoint, std::string> parse_listen_address(std::string_view spec) {
  const auto colon = spec.rfind(':');
  if (colon == std::string_view::npos) return std::unexpected("'" + std::string(spec) + "': expected HOST:PORT");
  auto host = spec.substr(0, colon);
  const auto port_text = spec.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc{} || end != port_text.data() + port_text.size() || port > 65535) {
    return std::unexpected("'" + std::string(spec) + "': port must be a number from 0 to 65535");
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost") host = "127.0.0.1";
  boost::system::error_code error;
  const auto address = boost::asio::ip::make_address(std::string(host), error);
  if (error) {
    return std::unexpected("'" + std::string(spec) + "': '" + std::string(host) +
                           "' is not an IP address (use e.g. 127.0.0.1, 0.0.0.0 or [::1])");
  }
  return tcp::endpoint(address, static_cast<unsigned short>(port));
}

TcpListener::TcpListener(boost::asio::io_context& io, std::string spec, rpc::Engine& engine, SessionSet& sessions,
                         const SessionLimits& limits)
    : spec_(std::move(spec)), engine_(engine), sessions_(sessions), limits_(limits),
      acceptor_(io), retry_timer_(io) {}

std::expected<void, std::string> TcpListener::open() {
  auto endpoint = parse_listen_address(spec_);
  if (!endpoint) return std::unexpected(endpoint.error());
  boost::system::error_code ec;
  acceptor_.open(endpoint->protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec && endpoint->address().is_v6()) acceptor_.set_option(boost::asio::ip::v6_only(true), ec);
  if (!ec) acceptor_.bind(*endpoint, ec);
  if (!ec) acceptor_.listen(tcp::acceptor::max_listen_connections, ec);
  if (ec) {
    acceptor_.close();
    return std::unexpected("cannot listen on " + spec_ + ": " + ec.message());
  }
  log::info("tcp", "listening on ", local_address(), " (MCP/U over TCP)");
  accept_next();
  return {};
}

void TcpListener::close() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  retry_timer_.cancel();
}

std::string TcpListener::local_address() const {
  boost::system::error_code ec;
  const auto endpoint = acceptor_.local_endpoint(ec);
  return ec ? spec_ : endpoint_text(endpoint);
}

void TcpListener::accept_next() {
  acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
    if (ec == boost::asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (!ec) {
      boost::system::error_code peer_error;
      const auto remote = socket.remote_endpoint(peer_error);
      const std::string peer = peer_error ? "unknown peer" : endpoint_text(remote);
      socket.set_option(tcp::no_delay(true), ec);
      admit_client(std::move(socket), peer, "tcp", engine_, sessions_, limits_);
    } else {
      // Running out of descriptors is the usual cause: pause instead of spinning.
      log::warn("tcp", "accept on ", spec_, ": ", ec.message());
      retry_timer_.expires_after(std::chrono::milliseconds(100));
      retry_timer_.async_wait([this](boost::system::error_code wait_error) {
        if (!wait_error && acceptor_.is_open()) accept_next();
      });
      return;
    }
    accept_next();
  });
}

}  // namespace mcpud::transports
