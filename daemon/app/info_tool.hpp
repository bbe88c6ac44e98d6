// SPDX-License-Identifier: MIT
// get_info: the device's identity (MCP/U) plus facts about the board it runs on.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <functional>
#include <string>

#include "mcpud/core/tool_registry.hpp"

namespace mcpud::app {

struct InfoSource {
  std::function<std::string()> device;
  std::string version;
  std::function<std::size_t()> pin_count;
  std::function<std::string()> board;  // configured board kind, e.g. "sim"
};

inline constexpr const char* kDaemonToolsOwner = "daemon";

void register_info_tool(ToolRegistry& registry, InfoSource source);

}  // namespace mcpud::app
