// SPDX-License-Identifier: MIT
// Which Host names the HTTP front door answers to, against DNS rebinding: a web
// page an attacker serves from a name he then points at this machine reaches the
// listener with his own name in Host, so checking the name refuses it.
// Plain data and functions without state; any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

namespace mcpud::http {

// A Host header's value (or an [http] allowed_hosts entry) taken apart.
struct HostName {
  std::string name;                            // lower case; an IP address in its canonical form, IPv6 without brackets
  std::optional<boost::asio::ip::address> ip;  // set when the name is an IP address
  std::optional<std::uint16_t> port;

  bool operator==(const HostName&) const = default;
};

// Parses "name", "name:port", "192.0.2.1:port" or "[2001:db8::1]:port" (RFC 9110's
// uri-host [":" port]). Nothing for anything else: empty, userinfo ("a@b"), a
// path, a bad port, characters a host name cannot hold.
std::optional<HostName> parse_host(std::string_view text);

// Whether `host` names this machine's loopback: localhost, 127.x.x.x or ::1.
bool is_loopback(const HostName& host);

// The names one listener accepts: loopback names always (localhost and loopback
// addresses, any port), its own address, and the [http] allowed_hosts entries
// (an entry without a port matches any port). A listener on a non-loopback
// address with no allowed_hosts accepts any well-formed name: a board reached as
// raspberrypi.local, by its address or through a VPN name.
struct HostRule {
  bool any_name = false;
  std::optional<boost::asio::ip::address> own_address;  // unset for a wildcard (0.0.0.0, ::)
  std::vector<HostName> allowed;
};

// The rule of a listener bound to `bound`; the error names an allowed_hosts
// entry that is not a host name.
std::expected<HostRule, std::string> host_rule(const boost::asio::ip::address& bound,
                                               const std::vector<std::string>& allowed_hosts);

enum class HostVerdict { accepted, missing, repeated, malformed, not_allowed };

// Judges every Host header of one request: exactly one, well formed, and a
// name `rule` accepts.
HostVerdict judge_host(std::span<const std::string_view> values, const HostRule& rule);

}  // namespace mcpud::http
