// SPDX-License-Identifier: MIT
// The board kinds mcpud knows ("sim", "raspberrypi", "linux", "none"): what a pin on each
// must say in the config, and the factory that creates its hardware handles.
// Plain data and functions without state; any thread.
#pragma once

#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "mcpud/core/error.hpp"
#include "mcpud/hal/sim_buses.hpp"
#include "mcpud/pins/pin_config.hpp"

namespace mcpud::pins {

struct BoardPin;

// The Raspberry Pi header chip's labels: Pi 3 / Zero 2, Pi 4, Pi 5.
inline const std::vector<std::string> kRaspberryPiChipLabels{"pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"};
inline constexpr int kRaspberryPiMaxGpio = 27;  // BCM GPIO0-27 are on the 40-pin header

// Completes a hardware pin's addresses from the board's conventions (raspberrypi:
// pin N is line GPIO<N> on the header chip) and refuses what is missing.
std::expected<void, std::string> check_pin_for_board(BoardKind board, const std::string& where, PinConfig& pin);

// Creates the hardware side of each pin of one board; owns what those pins share
// (the simulated board, IIO contexts).
class PinFactory {
 public:
  virtual ~PinFactory() = default;
  // Errors name the pin and what exists instead.
  virtual Result<void> attach(BoardPin& pin) = 0;
};

// `consumer` labels the GPIO lines mcpud requests (gpioinfo shows it);
// `sim_buses` (nullable; must outlive the pins) is the simulated board's
// 1-Wire bus for board "sim".
std::unique_ptr<PinFactory> make_pin_factory(const BoardConfig& board, const std::string& consumer,
                                             const hal::SimBuses* sim_buses);

// Checks that every GPIO line the config names exists, without requesting any.
std::expected<void, std::string> check_lines_exist(const BoardConfig& board);
// Checks that every sensor the config names can be read now.
std::expected<void, std::string> check_sensors_exist(const BoardConfig& board);

}  // namespace mcpud::pins
