// SPDX-License-Identifier: MIT
// Parsing host:port.
#include "mcpud/io/host_port.hpp"

#include <charconv>

namespace mcpud::io {

std::optional<HostPort> split_host_port(std::string_view text) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  auto host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const auto port = text.substr(colon + 1);
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535) return std::nullopt;
  return HostPort{std::string(host), static_cast<std::uint16_t>(value)};
}

}  // namespace mcpud::io
