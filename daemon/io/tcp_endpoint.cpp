// SPDX-License-Identifier: MIT
// Listener addresses and endpoint text.
#include "mcpud/io/tcp_endpoint.hpp"

#include <algorithm>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/v6_only.hpp>

#include "mcpud/io/host_port.hpp"

namespace mcpud::io {

using boost::asio::ip::tcp;

std::expected<tcp::endpoint, std::string> listen_endpoint(std::string_view spec) {
  const auto quoted = "'" + std::string(spec) + "'";
  if (spec.rfind(':') == std::string_view::npos) return std::unexpected(quoted + ": expected HOST:PORT");
  const auto address = split_host_port(spec);
  if (!address) return std::unexpected(quoted + ": port must be a number from 0 to 65535");
  const std::string host = address->host == "localhost" ? "127.0.0.1" : address->host;
  boost::system::error_code error;
  const auto ip = boost::asio::ip::make_address(host, error);
  if (error) {
    return std::unexpected(quoted + ": '" + address->host +
                           "' is not an IP address (use e.g. 127.0.0.1, 0.0.0.0 or [::1])");
  }
  return tcp::endpoint(ip, address->port);
}

boost::system::error_code listen_tcp(tcp::acceptor& acceptor, const tcp::endpoint& endpoint) {
  boost::system::error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec && endpoint.address().is_v6()) acceptor.set_option(boost::asio::ip::v6_only(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(tcp::acceptor::max_listen_connections, ec);
  if (ec) {
    boost::system::error_code ignored;
    acceptor.close(ignored);
  }
  return ec;
}

std::string peer_group(const boost::asio::ip::address& address) {
  if (address.is_v4()) return address.to_string();
  const auto v6 = address.to_v6();
  if (v6.is_v4_mapped()) return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
  if (v6.is_loopback()) return v6.to_string();
  auto bytes = v6.to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const auto host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return host + ":" + std::to_string(endpoint.port());
}

}  // namespace mcpud::io
