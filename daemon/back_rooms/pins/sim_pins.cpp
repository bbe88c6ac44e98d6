// SPDX-License-Identifier: MIT
// Creates each pin's handle on the simulated board.
#include "sim_pins.hpp"

#include "mcpud/pins/pin_table.hpp"
#include "sensor_sources.hpp"

namespace mcpud::pins {

Result<void> SimPinFactory::attach(BoardPin& pin) {
  const auto& c = pin.config;
  switch (c.type) {
    case hal::PinType::DigitalOutput:
      pin.output = board_.digital_output(c.name, c.initial);
      break;
    case hal::PinType::DigitalInput: {
      auto input = board_.digital_input(c.sim_input);
      if (!input) return std::unexpected(Error::internal("pin '" + c.name + "': " + input.error().message));
      pin.input = std::move(*input);
      break;
    }
    case hal::PinType::PwmOutput:
      pin.pwm = board_.pwm_output(c.frequency_hz);
      break;
    case hal::PinType::AdcInput:
      pin.adc = board_.analog_input(c.sim_analog);
      break;
    case hal::PinType::SensorInput:
      return attach_sensor(pin);
  }
  return {};
}

Result<void> SimPinFactory::attach_sensor(BoardPin& pin) {
  const auto& c = pin.config;
  if (c.sensor.kind != SensorSource::Kind::OneWire) {
    // The config check made sure the quantity is known.
    pin.sensor = board_.sensor_input(c.sim_analog, hal::quantity_named(c.sim_quantity).value_or(hal::Quantity{}));
    return {};
  }
  if (!buses_) return std::unexpected(Error::internal("pin '" + c.name + "': the simulated 1-Wire bus is not there"));
  auto thermometer = buses_->onewire_thermometer(c.sensor.device);
  if (!thermometer) {
    return std::unexpected(Error::domain(DomainError::OpenError, "pin " + std::to_string(c.pin) + " (" + c.name +
                                                                     "), " + describe(c.sensor) + ": " +
                                                                     thermometer.error().message));
  }
  pin.sensor = std::move(*thermometer);
  return {};
}

}  // namespace mcpud::pins
