// SPDX-License-Identifier: MIT
// The configuration of the uplinks, the front doors that dial out: [uplink.services]
// (the ##START services protocol), [uplink.assistant] (the voice-assistant MCP
// over WebSocket or MQTT) and [uplink.fleet] (JSON-RPC over an MQTT broker).
// Plain data and functions without state; any thread.
#pragma once

#include <expected>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/uplinks/assistant_uplink_config.hpp"
#include "mcpud/uplinks/fleet_uplink_config.hpp"
#include "mcpud/uplinks/services_uplink_config.hpp"

namespace mcpud::uplinks {

// One member per uplink kind; each is off until its table names a server.
struct UplinkConfig {
  FleetUplinkConfig fleet;          // [uplink.fleet]
  ServicesUplinkConfig services;    // [uplink.services]
  AssistantUplinkConfig assistant;  // [uplink.assistant]
  bool operator==(const UplinkConfig&) const = default;
};

// Adds the schema of [uplink] to the config schema's properties.
void add_uplink_schema(nlohmann::json& schema);
// Reads [uplink] from the validated document (defaults already filled in).
std::expected<UplinkConfig, std::string> parse_uplink_sections(const nlohmann::json& document);
// Replaces tokens and passwords in the resolved document by "(hidden)".
void hide_uplink_secrets(nlohmann::json& document);

}  // namespace mcpud::uplinks
