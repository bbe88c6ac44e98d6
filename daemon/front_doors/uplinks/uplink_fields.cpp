// SPDX-License-Identifier: MIT
// Server addresses and secrets of the uplink tables.
#include "mcpud/uplinks/uplink_fields.hpp"

#include <cctype>
#include <charconv>

#include "mcpud/core/regular_file.hpp"

namespace mcpud::uplinks {
namespace {

const nlohmann::json& shared_key_declarations() {
  static const auto declarations = nlohmann::json::parse(R"({
    "token": {"type": "string", "default": ""},
    "token_file": {"type": "string", "default": ""},
    "username": {"type": "string", "default": ""},
    "password": {"type": "string", "default": ""},
    "password_file": {"type": "string", "default": ""},
    "tls": {"type": "boolean", "default": false},
    "ca_file": {"type": "string", "default": ""},
    "cert_file": {"type": "string", "default": ""},
    "key_file": {"type": "string", "default": ""},
    "insecure_skip_verify": {"type": "boolean", "default": false},
    "retry_max_ms": {"type": "integer", "minimum": 100, "maximum": 3600000, "default": 30000}
  })");
  return declarations;
}

}  // namespace

nlohmann::json uplink_table_schema(const char* properties, std::initializer_list<std::string_view> shared_keys) {
  auto schema = nlohmann::json::parse(R"({"type": "object", "additionalProperties": false, "default": {}})");
  schema["properties"] = nlohmann::json::parse(properties);
  for (const auto key : shared_keys) {
    const std::string name(key);
    schema["properties"][name] = shared_key_declarations().at(name);
  }
  return schema;
}

std::expected<io::HostPort, std::string> parse_host_port(std::string_view text, std::string_view key,
                                                         std::string_view example) {
  auto address = io::split_host_port(text);
  if (!address || address->port == 0) {
    return std::unexpected(std::string(key) + ": expected host:port, e.g. " + std::string(example) + ", got '" +
                           std::string(text) + "'");
  }
  return std::move(*address);
}

std::expected<std::string, std::string> read_secret(const nlohmann::json& table, const std::string& name,
                                                    std::string_view table_key) {
  const std::string file_key = std::string(table_key) + "." + name + "_file";
  auto value = table.at(name).get<std::string>();
  const auto path = table.at(name + "_file").get<std::string>();
  if (path.empty()) return value;
  if (!value.empty()) return std::unexpected(file_key + ": give " + name + " or " + name + "_file, not both");
  // A secret is a line or two; a FIFO or a device named here must not block or flood the loop.
  constexpr std::size_t kMaxSecretBytes = 64 * 1024;
  auto text = read_regular_file(path, kMaxSecretBytes);
  if (!text) return std::unexpected(file_key + ": " + text.error());
  value = std::move(*text);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
  if (value.empty()) return std::unexpected(file_key + ": '" + path + "' is empty");
  return value;
}

}  // namespace mcpud::uplinks
