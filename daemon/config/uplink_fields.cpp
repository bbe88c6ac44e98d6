// SPDX-License-Identifier: MIT
// Server addresses and secrets of the uplink tables.
#include "config/uplink_fields.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mcpud::config {

std::expected<HostPort, std::string> parse_host_port(std::string_view text, std::string_view key,
                                                     std::string_view example) {
  const auto bad = [&] {
    return std::unexpected(std::string(key) + ": expected host:port, e.g. " + std::string(example) + ", got '" +
                           std::string(text) + "'");
  };
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return bad();
  HostPort out;
  auto host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  out.host = std::string(host);
  const auto port = text.substr(colon + 1);
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) return bad();
  out.port = static_cast<std::uint16_t>(value);
  return out;
}

std::expected<std::string, std::string> read_secret(const nlohmann::json& table, const std::string& name,
                                                    std::string_view table_key) {
  const std::string file_key = std::string(table_key) + "." + name + "_file";
  auto value = table.at(name).get<std::string>();
  const auto path = table.at(name + "_file").get<std::string>();
  if (path.empty()) return value;
  if (!value.empty()) return std::unexpected(file_key + ": give " + name + " or " + name + "_file, not both");
  std::ifstream in(path);
  if (!in) return std::unexpected(file_key + ": cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  value = text.str();
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
  if (value.empty()) return std::unexpected(file_key + ": '" + path + "' is empty");
  return value;
}

}  // namespace mcpud::config
