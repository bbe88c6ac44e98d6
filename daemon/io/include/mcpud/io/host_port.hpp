// SPDX-License-Identifier: MIT
// Network addresses as configured: "host:port" and "[v6]:port", for the
// listeners, the uplinks and the TCP bridges alike.
// Plain data and functions without state; any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace mcpud::io {

struct HostPort {
  std::string host;  // a name, an IPv4 address or an IPv6 address without brackets
  std::uint16_t port = 0;
  bool operator==(const HostPort&) const = default;
};

// Splits "host:port" or "[v6]:port"; nothing when there is no host, no colon,
// or the port is not a number from 0 to 65535.
std::optional<HostPort> split_host_port(std::string_view text);

}  // namespace mcpud::io
