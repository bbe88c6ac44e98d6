// SPDX-License-Identifier: MIT
// The MCP/U built-in pin tools (gpio_write, gpio_read, pwm_write, adc_read,
// sensor_read, get_pin_summary, get_pin_buffer, get_pin_events) over the board's pin table.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <nlohmann/json.hpp>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/tool_registry.hpp"

namespace mcpud::pins {

class OutputGuard;
class PinTable;
class SensorReads;

inline constexpr const char* kPinToolsOwner = "pins";

// Registers the pin tools under owner "pins". The sampling tools are added only
// when some pin has sampling, as the reference firmware does. `pins` must outlive
// the registered tools (remove them with registry.remove_owner(kPinToolsOwner)).
// sensor_read reads through `reads` (which must outlive the tools too), so a
// slow sensor answers later without stalling other clients. gpio_write and
// pwm_write publish PinChanged on `events` when given. Writes of the outputs
// `guard` (nullable; must outlive the tools) has adopted pass through it, and
// the write tools' descriptions list their limits.
void register_pin_tools(ToolRegistry& registry, PinTable& pins, SensorReads& reads, EventHub* events = nullptr,
                        OutputGuard* guard = nullptr);

// The MCP/U pin registry entries (list_tools "pins") for the board's pins, with
// each guarded output's limits and live state from `guard` (nullable).
nlohmann::json describe_pins(const PinTable& pins, const OutputGuard* guard = nullptr);

}  // namespace mcpud::pins
