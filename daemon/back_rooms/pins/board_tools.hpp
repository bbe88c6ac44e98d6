// SPDX-License-Identifier: MIT
// Tools about the board rather than one pin: board_health (CPU temperature,
// throttling, load, memory, uptime) and onewire_list (the 1-Wire devices the
// kernel found). Registered with the pin tools, under their owner.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include "mcpud/core/tool_registry.hpp"

namespace mcpud::pins {

class PinTable;

// Adds the board tools that fit `pins`' board (board_health on every board,
// onewire_list on those with a 1-Wire bus: real boards and the simulated one).
// `pins` must outlive them, as for register_pin_tools.
void register_board_tools(ToolRegistry& registry, const PinTable& pins);
// Adds one tool of the pins' owner; a name clash is a programming error (throws).
void register_pin_tool(ToolRegistry& registry, Tool tool);

}  // namespace mcpud::pins
