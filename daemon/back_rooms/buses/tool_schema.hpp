// SPDX-License-Identifier: MIT
// Schema fragments the bus tools share, and registering one of them.
// Plain functions; event loop only where they touch the registry.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/tool_registry.hpp"

namespace mcpud::buses {

nlohmann::json object_schema(nlohmann::json properties, nlohmann::json required);
nlohmann::json integer_schema(long long minimum, long long maximum, const char* description);
// An array of bytes (integers 0-255), at most `max_items`.
nlohmann::json bytes_schema(std::size_t max_items, const char* description);

// Registers a tool of `owner`; numbers sent as strings ("72") are accepted.
// `hints`: what a call does (tool.hpp).
void add_bus_tool(ToolRegistry& registry, const char* owner, std::string name, std::string title,
                  std::string description, nlohmann::json input, nlohmann::json output, ToolInvoke invoke,
                  ToolAnnotations hints);

}  // namespace mcpud::buses
