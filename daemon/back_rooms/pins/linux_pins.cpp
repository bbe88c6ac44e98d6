// SPDX-License-Identifier: MIT
// Requests each configured pin's GPIO line, IIO channel, PWM channel or sensor.
#include "linux_pins.hpp"

#include "mcpud/core/log.hpp"
#include "mcpud/hal/gpio.hpp"
#include "mcpud/hal/pwm_sysfs.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "sensor_sources.hpp"

namespace mcpud::pins {
namespace {

Error open_failure(const BoardPin& pin, const std::string& what, const hal::HalError& error) {
  return Error::domain(DomainError::OpenError,
                       "pin " + std::to_string(pin.number()) + " (" + pin.name() + "), " + what + ": " + error.message);
}

}  // namespace

LinuxPinFactory::LinuxPinFactory(std::string consumer, std::string pwm_sysfs_root, std::string sysfs_root)
    : consumer_(std::move(consumer)), pwm_sysfs_root_(std::move(pwm_sysfs_root)), sysfs_root_(std::move(sysfs_root)) {}

Result<void> LinuxPinFactory::attach_gpio(BoardPin& pin) {
  const auto& c = pin.config;
  auto line = hal::resolve_line(c.line);
  if (!line) return std::unexpected(open_failure(pin, "GPIO " + c.line.describe(), line.error()));
  const std::string where = "GPIO " + line->chip.name + " line " + std::to_string(line->offset);
  // Names the libgpiod API: the kernel test proves which backend drove the lines.
  log::debug("pins", pin.name(), ": requesting ", where, " through ", hal::gpio_backend_name());
  if (c.type == hal::PinType::DigitalOutput) {
    auto output = hal::request_output(*line, c.gpio_output, consumer_);
    if (!output) return std::unexpected(open_failure(pin, where, output.error()));
    pin.output = std::move(*output);
    return {};
  }
  auto input = hal::request_input(*line, c.gpio_input, consumer_);
  if (!input) return std::unexpected(open_failure(pin, where, input.error()));
  if ((*input)->event_fd() >= 0) pin.edges = input->get();
  pin.input = std::move(*input);
  return {};
}

Result<void> LinuxPinFactory::attach(BoardPin& pin) {
  const auto& c = pin.config;
  switch (c.type) {
    case hal::PinType::DigitalOutput:
    case hal::PinType::DigitalInput:
      return attach_gpio(pin);
    case hal::PinType::AdcInput: {
      auto adc = iio_.open_channel(c.iio);
      if (!adc) return std::unexpected(open_failure(pin, "IIO " + c.iio.device + "/" + c.iio.channel, adc.error()));
      pin.adc = std::move(*adc);
      return {};
    }
    case hal::PinType::SensorInput: {
      auto sensor = open_sensor(sysfs_root_, c.sensor);
      if (!sensor) return std::unexpected(open_failure(pin, describe(c.sensor), sensor.error()));
      pin.sensor = std::move(*sensor);
      return {};
    }
    case hal::PinType::PwmOutput: {
      hal::PwmSysfsSpec spec{pwm_sysfs_root_, c.pwm_chip, c.pwm_channel, c.frequency_hz, c.pwm_inverted};
      auto pwm = hal::open_sysfs_pwm(spec);
      if (!pwm)
        return std::unexpected(
            open_failure(pin, "PWM " + c.pwm_chip + "/" + std::to_string(c.pwm_channel), pwm.error()));
      pin.pwm = std::move(*pwm);
      return {};
    }
  }
  return {};
}

}  // namespace mcpud::pins
