// SPDX-License-Identifier: MIT
// [[bridges]]: schema, parsing and the link-dependent defaults.
#include "mcpud/bridge/bridge_config.hpp"

#include <set>

#include "mcpud/io/host_port.hpp"

namespace mcpud::bridge {
namespace {

using nlohmann::json;

const char* const kBridgesSchema = R"json({
  "type": "array",
  "default": [],
  "maxItems": 64,
  "items": {
    "type": "object",
    "additionalProperties": false,
    "required": ["id"],
    "properties": {
      "id": {"type": "string", "minLength": 1, "maxLength": 32, "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"},
      "port": {"type": "string", "minLength": 1},
      "tcp": {"type": "string", "minLength": 3},
      "discover": {"type": "string", "minLength": 1, "maxLength": 63},
      "baud": {"type": "integer", "minimum": 1, "default": 115200},
      "reset_wait_ms": {"type": "integer", "minimum": 0, "maximum": 60000},
      "timeout_ms": {"type": "integer", "minimum": 10, "maximum": 600000, "default": 5000},
      "retry_max_ms": {"type": "integer", "minimum": 10, "maximum": 3600000, "default": 5000},
      "replug_grace_ms": {"type": "integer", "minimum": 0, "maximum": 3600000, "default": 10000},
      "max_in_flight": {"type": "integer", "minimum": 1, "maximum": 1024, "default": 16}
    }
  }
})json";

std::expected<BridgeConfig, std::string> parse_bridge(const json& j, const std::string& where) {
  BridgeConfig bridge;
  bridge.id = j.at("id").get<std::string>();
  if (bridge.id.find("__") != std::string::npos)
    return std::unexpected(where + ".id: must not contain \"__\" (it separates id and tool)");
  bridge.port = j.value("port", "");
  bridge.tcp = j.value("tcp", "");
  bridge.discover = j.value("discover", "");
  if (!bridge.port.empty() + !bridge.tcp.empty() + !bridge.discover.empty() != 1)
    return std::unexpected(where +
                           ": give exactly one of port (a serial device), tcp (host:port) or discover (a pattern of "
                           "the names boards announce on the LAN)");
  if (!bridge.port.empty() && bridge.port.front() != '/')
    return std::unexpected(where + ".port: expected an absolute device path, e.g. /dev/ttyACM0");
  if (!bridge.tcp.empty() && !io::split_host_port(bridge.tcp)) {
    return std::unexpected(where + ".tcp: expected host:port, e.g. 192.168.1.40:3000");
  }
  bridge.baud = j.at("baud").get<std::uint32_t>();
  // Not in the schema: it depends on the link. A serial board resets when its port opens (DTR).
  bridge.reset_wait_ms = j.value("reset_wait_ms", bridge.port.empty() ? 0u : 600u);
  bridge.timeout_ms = j.at("timeout_ms").get<std::uint32_t>();
  bridge.retry_max_ms = j.at("retry_max_ms").get<std::uint32_t>();
  bridge.replug_grace_ms = j.at("replug_grace_ms").get<std::uint32_t>();
  bridge.max_in_flight = j.at("max_in_flight").get<std::uint32_t>();
  return bridge;
}

std::expected<void, std::string> parse_list(const json& list, std::vector<BridgeConfig>& out) {
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto where = "bridges[" + std::to_string(i) + "]";
    auto bridge = parse_bridge(list[i], where);
    if (!bridge) return std::unexpected(bridge.error());
    if (!ids.insert(bridge->id).second)
      return std::unexpected(where + ".id: '" + bridge->id + "' is used by another bridge");
    out.push_back(std::move(*bridge));
  }
  return {};
}

}  // namespace

void add_bridges_schema(json& schema) { schema["properties"]["bridges"] = json::parse(kBridgesSchema); }

std::expected<std::vector<BridgeConfig>, std::string> parse_bridges(json& document) {
  std::vector<BridgeConfig> bridges;
  if (auto parsed = parse_list(document.at("bridges"), bridges); !parsed) return std::unexpected(parsed.error());
  // --check-config shows what a bridge really uses: defaults that depend on the
  // link are not in the schema, and a TCP link has no baud rate.
  for (std::size_t i = 0; i < bridges.size(); ++i) {
    auto& shown = document["bridges"][i];
    shown["reset_wait_ms"] = bridges[i].reset_wait_ms;
    if (!bridges[i].tcp.empty()) shown.erase("baud");
  }
  return bridges;
}

}  // namespace mcpud::bridge
