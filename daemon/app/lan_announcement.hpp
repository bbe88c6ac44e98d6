// SPDX-License-Identifier: MIT
// What mcpud announces on the LAN ([discovery]): every MCP/U TCP or TLS
// listener and the HTTP door when they listen beyond loopback, each on the
// interface its address belongs to. Plain functions; any thread.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/bridge/bridge_config.hpp"
#include "mcpud/dbus/announcer.hpp"
#include "mcpud/dbus/service_watch.hpp"

namespace mcpud::app {

// `listeners` as FrontDoors::listeners() gives them; `http_token`: the HTTP
// door asks for a bearer token.
std::vector<dbus::AnnouncedService> services_to_announce(const nlohmann::json& listeners, bool http_token);

// The DNS-SD instance name: `name`, or the device's, cut to DNS-SD's 63 bytes
// at a character boundary.
std::string instance_name(const std::string& name, const std::string& device);

// `configs` with each [[bridges]] `discover` table given the endpoint of the
// first board in `found` whose name matches its pattern and that no other
// table took; one that matches none is left out until one appears. `own` is
// this daemon's own instance name, never a bridge of its own.
std::vector<bridge::BridgeConfig> place_discovered_bridges(std::vector<bridge::BridgeConfig> configs,
                                                           const std::vector<dbus::FoundService>& found,
                                                           const std::string& own);

}  // namespace mcpud::app
