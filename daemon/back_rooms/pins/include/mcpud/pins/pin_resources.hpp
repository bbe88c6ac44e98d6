// SPDX-License-Identifier: MIT
// The board's pins as MCP resources: mcpu://pins/<name>, read as JSON
// {pin, name, type, description, value, ...}.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"

namespace mcpud::pins {

class PinTable;

inline constexpr std::string_view kPinUriPrefix = "mcpu://pins/";

// [{uri, name, description, mimeType}] for every pin, the bridged devices' present ones last.
nlohmann::json list_pin_resources(const PinTable& pins);
// The current state of the pin `uri` names; RESOURCE_NOT_FOUND for any other URI.
Result<nlohmann::json> read_pin_resource(PinTable& pins, std::string_view uri);

}  // namespace mcpud::pins
