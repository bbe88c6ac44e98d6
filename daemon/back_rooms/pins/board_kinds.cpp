// SPDX-License-Identifier: MIT
// Per-board config conventions and the choice of pin factory.
#include "board_kinds.hpp"

#include "linux_pins.hpp"
#include "mcpud/hal/gpio.hpp"
#include "sensor_sources.hpp"
#include "sim_pins.hpp"

namespace mcpud::pins {
namespace {

using hal::PinType;

std::expected<void, std::string> complete_raspberrypi(const std::string& where, PinConfig& pin) {
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

std::expected<void, std::string> require_linux_line(const std::string& where, const PinConfig& pin) {
  if (pin.line.chip.empty())
    return std::unexpected(where + ".chip: board \"linux\" needs the GPIO chip (label, name or /dev path)");
  if (!pin.line.offset && pin.line.line_name.empty()) {
    return std::unexpected(where + ".line: board \"linux\" needs the line's name or offset on chip '" + pin.line.chip +
                           "'");
  }
  return {};
}

}  // namespace

std::expected<void, std::string> check_pin_for_board(BoardKind board, const std::string& where, PinConfig& pin) {
  switch (pin.type) {
    case PinType::DigitalOutput:
    case PinType::DigitalInput:
      return board == BoardKind::RaspberryPi ? complete_raspberrypi(where, pin) : require_linux_line(where, pin);
    case PinType::AdcInput:
      if (pin.iio.device.empty())
        return std::unexpected(where + ".iio: an adc_input on board \"" + std::string(board_kind_name(board)) +
                               "\" needs iio = { device, channel }");
      return {};
    case PinType::SensorInput:
      if (pin.sensor.kind == SensorSource::Kind::None)
        return std::unexpected(where + ": a sensor_input on board \"" + std::string(board_kind_name(board)) +
                               "\" needs where to read it: iio = { device, channel }, hwmon = { device, input }, " +
                               "thermal = { zone } or onewire = { id }");
      return {};
    case PinType::PwmOutput:
      if (pin.pwm_chip.empty())
        return std::unexpected(where + ".pwm.chip: a pwm_output on board \"" + std::string(board_kind_name(board)) +
                               "\" needs the PWM chip, e.g. \"pwmchip0\"");
      return {};
  }
  return {};
}

std::expected<void, std::string> check_lines_exist(const BoardConfig& board) {
  for (const auto& pin : board.pins) {
    if (pin.type != PinType::DigitalOutput && pin.type != PinType::DigitalInput) continue;
    if (auto line = hal::resolve_line(pin.line); !line) {
      return std::unexpected("pin " + std::to_string(pin.pin) + " (" + pin.name + "), GPIO " + pin.line.describe() +
                             ": " + line.error().message);
    }
  }
  return {};
}

std::expected<void, std::string> check_sensors_exist(const BoardConfig& board) {
  for (const auto& pin : board.pins) {
    if (pin.type != PinType::SensorInput) continue;
    if (auto sensor = open_sensor(board.sysfs_root, pin.sensor); !sensor) {
      return std::unexpected("pin " + std::to_string(pin.pin) + " (" + pin.name + "), " + describe(pin.sensor) + ": " +
                             sensor.error().message);
    }
  }
  return {};
}

std::unique_ptr<PinFactory> make_pin_factory(const BoardConfig& board, const std::string& consumer,
                                             const hal::SimBuses* sim_buses) {
  if (board.kind == BoardKind::Sim) return std::make_unique<SimPinFactory>(sim_buses);
  return std::make_unique<LinuxPinFactory>(consumer, board.pwm_sysfs_root, board.sysfs_root);
}

}  // namespace mcpud::pins
