// SPDX-License-Identifier: MIT
// TCP endpoints: the address a listener binds, and how endpoints are written.
#pragma once

#include <expected>
#include <string>
#include <string_view>

#include <boost/asio/ip/tcp.hpp>

namespace mcpud::io {

// The address a listener binds: "127.0.0.1:3000", "[::1]:3000", "0.0.0.0:3000",
// "localhost:3000"; port 0 asks the kernel for a free one. The host must be an
// IP address (or localhost): a listener does not resolve names.
std::expected<boost::asio::ip::tcp::endpoint, std::string> listen_endpoint(std::string_view spec);

// Opens `acceptor` on `endpoint`, binds and listens: the address reusable at
// once after a restart, an IPv6 address for IPv6 only (so [::] and 0.0.0.0 can
// be listed side by side). On failure the acceptor is closed again.
boost::system::error_code listen_tcp(boost::asio::ip::tcp::acceptor& acceptor,
                                     const boost::asio::ip::tcp::endpoint& endpoint);

// "127.0.0.1:3000" or "[::1]:3000".
std::string endpoint_text(const boost::asio::ip::tcp::endpoint& endpoint);

// Whom per-address limits count a peer as: its IPv4 address, or for IPv6 its
// /64 network ("2001:db8:1:2::/64"), since one host may use any address of its
// /64. An IPv4 address mapped into IPv6 counts as the IPv4 address.
std::string peer_group(const boost::asio::ip::address& address);

}  // namespace mcpud::io
