// SPDX-License-Identifier: MIT
// The pin keys of the real boards ("raspberrypi", "linux"): GPIO chip and line,
// bias, drive, edge events, IIO channel, PWM chip; and which board may use which.
#pragma once

#include <expected>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/pins/pin_config.hpp"

namespace mcpud::pins {

// Reads the hardware keys of one pin (already schema-checked) into `pin`, and
// refuses keys that do not fit the board or the pin's type, naming the key path.
std::expected<void, std::string> parse_hardware_keys(const nlohmann::json& j, const std::string& where, BoardKind board,
                                                     PinConfig& pin);

}  // namespace mcpud::pins
