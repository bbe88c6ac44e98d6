// SPDX-License-Identifier: MIT
// Per-board config conventions and the choice of pin factory.
#include "boards/board_kinds.hpp"

#include "boards/linux_pins.hpp"
#include "boards/sim_pins.hpp"

namespace mcpud::boards {
namespace {

using hal::PinType;

std::expected<void, std::string> complete_raspberrypi(const std::string& where, config::PinConfig& pin) {
  auto& line = pin.line;
  if (line.chip.empty()) line.chip_labels = kRaspberryPiChipLabels;
  if (line.offset || !line.line_name.empty()) return {};
  if (pin.pin > kRaspberryPiMaxGpio) {
    return std::unexpected(where + ".pin: " + std::to_string(pin.pin) +
                           " is not a BCM GPIO on the Raspberry Pi header (0-" + std::to_string(kRaspberryPiMaxGpio) +
                           "); give line = \"GPIOnn\" or an offset to use another line");
  }
  line.line_name = "GPIO" + std::to_string(pin.pin);
  return {};
}

std::expected<void, std::string> require_linux_line(const std::string& where, const config::PinConfig& pin) {
  if (pin.line.chip.empty())
    return std::unexpected(where + ".chip: board \"linux\" needs the GPIO chip (label, name or /dev path)");
  if (!pin.line.offset && pin.line.line_name.empty()) {
    return std::unexpected(where + ".line: board \"linux\" needs the line's name or offset on chip '" + pin.line.chip +
                           "'");
  }
  return {};
}

}  // namespace

std::expected<void, std::string> check_pin_for_board(const std::string& board, const std::string& where,
                                                     config::PinConfig& pin) {
  switch (pin.type) {
    case PinType::DigitalOutput:
    case PinType::DigitalInput:
      return board == "raspberrypi" ? complete_raspberrypi(where, pin) : require_linux_line(where, pin);
    case PinType::AdcInput:
      if (pin.iio.device.empty())
        return std::unexpected(where + ".iio: an adc_input on board \"" + board + "\" needs iio = { device, channel }");
      return {};
    case PinType::PwmOutput:
      if (pin.pwm_chip.empty())
        return std::unexpected(where + ".pwm.chip: a pwm_output on board \"" + board +
                               "\" needs the PWM chip, e.g. \"pwmchip0\"");
      return {};
  }
  return {};
}

std::unique_ptr<PinFactory> make_pin_factory(const config::Config& config) {
  if (config.board == "sim") return std::make_unique<SimPinFactory>();
  return std::make_unique<LinuxPinFactory>(config.device, config.pwm_sysfs_root);
}

}  // namespace mcpud::boards
