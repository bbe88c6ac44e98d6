// SPDX-License-Identifier: MIT
// What mcpud announces on the LAN ([discovery]): every MCP/U TCP or TLS
// listener and the HTTP door when they listen beyond loopback, each on the
// interface its address belongs to. Plain functions; any thread.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/dbus/announcer.hpp"

namespace mcpud::app {

// `listeners` as FrontDoors::listeners() gives them; `http_token`: the HTTP
// door asks for a bearer token.
std::vector<dbus::AnnouncedService> services_to_announce(const nlohmann::json& listeners, bool http_token);

// The DNS-SD instance name: `name`, or the device's, cut to DNS-SD's 63 bytes
// at a character boundary.
std::string instance_name(const std::string& name, const std::string& device);

}  // namespace mcpud::app
