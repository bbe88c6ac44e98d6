// SPDX-License-Identifier: MIT
// The MCP/U dialect: list_tools (tools with schemas, plus the pin registry).
// Every tool, get_info included, is also callable as a method by its name.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/dispatcher.hpp"

namespace mcpud::dialects {

struct DeviceIdentity {
  std::function<std::string()> device;   // device name (it can change on reload)
  std::string version;                   // daemon version
  std::function<nlohmann::json()> pins;  // the pin registry, MCP/U shape
};

void install_mcpu_dialect(rpc::Dispatcher& dispatcher, DeviceIdentity identity);

// The list_tools reply: {device, version, tools:[...], pins:[...]}. The method
// sends the same, serialized with the tools part cached (rpc::serialized_result).
nlohmann::json list_tools_reply(const ToolRegistry& registry, const DeviceIdentity& identity);
// The tools part: [{name, description, inputSchema, polling?}].
nlohmann::json tools_of(const ToolRegistry& registry);

}  // namespace mcpud::dialects
