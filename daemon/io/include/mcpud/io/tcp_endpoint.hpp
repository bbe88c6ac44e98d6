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

// "127.0.0.1:3000" or "[::1]:3000".
std::string endpoint_text(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace mcpud::io
