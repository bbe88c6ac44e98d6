// SPDX-License-Identifier: MIT
// The board's pins as MCP resources: mcpu://pins/<name>, read as JSON
// {pin, name, type, description, value, ...}.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/tool.hpp"

namespace mcpud::pins {

class PinTable;
class SensorReads;

inline constexpr std::string_view kPinUriPrefix = "mcpu://pins/";

// [{uri, name, description, mimeType}] for every pin, the bridged devices' present ones last.
nlohmann::json list_pin_resources(const PinTable& pins);
// Calls `done` with the current state of the pin `uri` names (RESOURCE_NOT_FOUND
// for any other URI): at once, or when a slow sensor's value arrives through `reads`.
void read_pin_resource(PinTable& pins, SensorReads& reads, std::string_view uri, ToolReply done);
// A pin of that URI is configured (present, for a bridged device's pin); nothing is read.
bool pin_resource_exists(PinTable& pins, std::string_view uri);

}  // namespace mcpud::pins
