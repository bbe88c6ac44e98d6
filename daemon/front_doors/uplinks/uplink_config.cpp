// SPDX-License-Identifier: MIT
// Schema and parsing of [uplink]: one sub-table per uplink kind.
#include "mcpud/uplinks/uplink_config.hpp"

namespace mcpud::uplinks {

using nlohmann::json;

void add_uplink_schema(json& schema) {
  auto uplink = json::parse(R"({"type": "object", "additionalProperties": false, "default": {}, "properties": {}})");
  uplink["properties"]["fleet"] = fleet_uplink_schema();
  uplink["properties"]["services"] = services_uplink_schema();
  uplink["properties"]["assistant"] = assistant_uplink_schema();
  schema["properties"]["uplink"] = std::move(uplink);
}

std::expected<UplinkConfig, std::string> parse_uplink_sections(const json& document) {
  UplinkConfig out;
  [[maybe_unused]] const auto& uplink = document.at("uplink");
  if (auto fleet = parse_fleet_uplink(uplink.at("fleet")); fleet)
    out.fleet = std::move(*fleet);
  else
    return std::unexpected(fleet.error());
  if (auto services = parse_services_uplink(uplink.at("services")); services)
    out.services = std::move(*services);
  else
    return std::unexpected(services.error());
  auto assistant = parse_assistant_uplink(uplink.at("assistant"));
  if (!assistant) return std::unexpected(assistant.error());
  out.assistant = std::move(*assistant);
  return out;
}

void hide_uplink_secrets(json& document) {
  for (auto& [name, table] : document["uplink"].items()) {
    for (const auto* key : {"token", "password"}) {
      if (table.contains(key) && table[key].is_string() && !table[key].get<std::string>().empty())
        table[key] = "(hidden)";
    }
  }
}

}  // namespace mcpud::uplinks
