// SPDX-License-Identifier: MIT
// WebSocket URLs (ws://host[:port][/path][?query], wss://...) split into what a
// client dials, for the config check and the WebSocket uplink.
// Plain data and functions without state; any thread.
#pragma once

#include <expected>
#include <string>
#include <string_view>

namespace mcpud::uplinks {

struct WsTarget {
  bool tls = false;
  std::string host;             // without brackets for an IPv6 literal
  std::string port;             // "80"/"443" when the URL gives none
  std::string target;           // path and query, "/" at least
  std::string display() const;  // scheme://host:port/path, without the query (which may hold secrets)
};

// The error says what is wrong, e.g. "port must be 1..65535, got '99999'".
std::expected<WsTarget, std::string> parse_ws_url(std::string_view url);

}  // namespace mcpud::uplinks
