// SPDX-License-Identifier: MIT
// Host header parsing and the names a listener answers to.
#include "host_rule.hpp"

#include "mcpud/http/http_server.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace mcpud::http {
namespace {

using boost::asio::ip::address;

// Reads what follows the host part into `port`: "" (no port) or ":<1 to 5
// digits, from 1 to 65535>" (port 0 names no listener). False when it is
// anything else.
bool parse_port(std::string_view rest, std::optional<std::uint16_t>& port) {
  port.reset();
  if (rest.empty()) return true;
  const auto digits = rest.substr(1);
  if (rest.front() != ':' || digits.empty() || digits.size() > 5) return false;
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size() || value == 0 || value > 65535) return false;
  port = static_cast<std::uint16_t>(value);
  return true;
}

// "[2001:db8::1]" and what follows it.
std::optional<HostName> parse_bracketed(std::string_view text) {
  const auto close = text.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const auto inside = text.substr(1, close - 1);
  // Hex digits, colons and an embedded IPv4 tail only: no zone ids, no IPvFuture.
  if (inside.empty() || inside.find_first_not_of("0123456789abcdefABCDEF:.") != std::string_view::npos)
    return std::nullopt;
  boost::system::error_code error;
  const auto ip = boost::asio::ip::make_address_v6(std::string(inside), error);
  std::optional<std::uint16_t> port;
  if (error || !parse_port(text.substr(close + 1), port)) return std::nullopt;
  return HostName{ip.to_string(), address(ip), port};
}

// A registered name or an IPv4 address, and what follows it.
std::optional<HostName> parse_plain(std::string_view text) {
  const auto colon = text.find(':');
  const auto host = text.substr(0, colon);
  std::optional<std::uint16_t> port;
  const bool port_ok = parse_port(colon == std::string_view::npos ? std::string_view() : text.substr(colon), port);
  // Letters, digits and "-._~": no userinfo "@", no path, no percent-encoding.
  const bool name_chars = std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
  });
  if (host.empty() || !name_chars || !port_ok) return std::nullopt;
  std::string name(host);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  boost::system::error_code error;
  const auto ip = boost::asio::ip::make_address_v4(name, error);
  if (error) return HostName{std::move(name), std::nullopt, port};
  return HostName{ip.to_string(), address(ip), port};
}

std::string not_a_host(std::size_t index, const std::string& entry) {
  return "http.allowed_hosts[" + std::to_string(index) + "]: '" + entry +
         "' is not a host name with an optional :port, e.g. pi.local or pi.local:8080";
}

bool matches(const HostName& host, const HostName& entry) {
  return host.name == entry.name && (!entry.port || entry.port == host.port);
}

bool accepts(const HostRule& rule, const HostName& host) {
  if (rule.any_name || is_loopback(host)) return true;
  if (rule.own_address && host.ip == rule.own_address) return true;
  return std::any_of(rule.allowed.begin(), rule.allowed.end(),
                     [&](const HostName& entry) { return matches(host, entry); });
}

}  // namespace

bool is_loopback(const HostName& host) { return host.name == "localhost" || (host.ip && host.ip->is_loopback()); }

std::optional<HostName> parse_host(std::string_view text) {
  if (text.empty()) return std::nullopt;
  return text.front() == '[' ? parse_bracketed(text) : parse_plain(text);
}

std::expected<HostRule, std::string> host_rule(const address& bound, const std::vector<std::string>& allowed_hosts) {
  HostRule rule;
  rule.any_name = !bound.is_loopback() && allowed_hosts.empty();
  if (!bound.is_unspecified()) rule.own_address = bound;
  for (std::size_t i = 0; i < allowed_hosts.size(); ++i) {
    auto entry = parse_host(allowed_hosts[i]);
    if (!entry) return std::unexpected(not_a_host(i, allowed_hosts[i]));
    rule.allowed.push_back(std::move(*entry));
  }
  return rule;
}

std::expected<void, std::string> check_allowed_hosts(const std::vector<std::string>& hosts) {
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    if (!parse_host(hosts[i])) return std::unexpected(not_a_host(i, hosts[i]));
  }
  return {};
}

HostVerdict judge_host(std::span<const std::string_view> values, const HostRule& rule) {
  if (values.empty()) return HostVerdict::missing;
  if (values.size() > 1) return HostVerdict::repeated;
  const auto host = parse_host(values.front());
  if (!host) return HostVerdict::malformed;
  return accepts(rule, *host) ? HostVerdict::accepted : HostVerdict::not_allowed;
}

}  // namespace mcpud::http
