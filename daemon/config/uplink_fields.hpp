// SPDX-License-Identifier: MIT
// Fields every uplink table has in some form: a server address and secrets that
// may live in a file of their own (so the conffile can stay world-readable).
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcpud::config {

struct HostPort {
  std::string host;  // a name, an IPv4 address or an IPv6 address without brackets
  std::uint16_t port = 0;
  bool operator==(const HostPort&) const = default;
};

// Parses "host:port" or "[v6]:port". Errors read "<key>: expected host:port,
// e.g. <example>, got '<text>'".
std::expected<HostPort, std::string> parse_host_port(std::string_view text, std::string_view key,
                                                     std::string_view example);

// The secret `name` of `table` (e.g. "token"), given inline or in the file
// `<name>_file` (trailing whitespace dropped), not both; "" when neither is given.
// `table_key` ("uplink.fleet") prefixes the errors: an unreadable or empty file,
// or both given.
std::expected<std::string, std::string> read_secret(const nlohmann::json& table, const std::string& name,
                                                    std::string_view table_key);

}  // namespace mcpud::config
