// SPDX-License-Identifier: MIT
// The pin keys of the real boards ("raspberrypi", "linux"): GPIO chip and line,
// bias, drive, edge events, IIO channel, PWM chip; and which board may use which.
#pragma once

#include <expected>
#include <string>

#include <nlohmann/json.hpp>

#include "config/config.hpp"

namespace mcpud::config {

// Reads the hardware keys of one pin (already schema-checked) into `pin`, and
// refuses keys that do not fit the board or the pin's type, naming the key path.
std::expected<void, std::string> parse_hardware_keys(const nlohmann::json& j, const std::string& where,
                                                     const std::string& board, PinConfig& pin);

}  // namespace mcpud::config
