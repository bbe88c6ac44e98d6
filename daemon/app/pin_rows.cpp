// SPDX-License-Identifier: MIT
// ListPins rows from the pin table.
#include "pin_rows.hpp"

#include "mcpud/pins/pin_table.hpp"

namespace mcpud::app {
namespace {

// The pin's present value: level (0/1), duty (0-255), raw ADC counts or a
// sensor's value in its unit.
hal::HalResult<double> level_of(const hal::HalResult<bool>& level) {
  if (!level) return std::unexpected(level.error());
  return *level ? 1.0 : 0.0;
}

hal::HalResult<double> current_value(pins::BoardPin& pin) {
  if (pin.output) return level_of(pin.output->read());
  if (pin.input) return level_of(pin.input->read());
  if (pin.pwm) return pin.pwm->state().duty * 255.0;
  if (pin.adc) {
    auto reading = pin.adc->read();
    if (!reading) return std::unexpected(reading.error());
    return static_cast<double>(reading->raw);
  }
  // ListPins answers at once: a slow sensor (1-Wire) is not converted here.
  if (pin.sensor && pin.sensor->slow()) {
    return std::unexpected(
        hal::HalError{hal::HalError::Kind::Io, "a slow sensor (up to 750 ms a reading): read it with sensor_read"});
  }
  if (pin.sensor) return pin.sensor->read();
  return 0.0;
}

}  // namespace

std::vector<dbus::PinRow> pin_rows(pins::PinTable& table) {
  std::vector<dbus::PinRow> rows;
  for (const auto& pin : table.pins()) {
    dbus::Dict details{{"description", sdbus::Variant{pin->config.description}}};
    if (pin->sensor) details.emplace("unit", sdbus::Variant{pin->sensor->quantity().unit});
    if (auto value = current_value(*pin)) {
      details.emplace("value", sdbus::Variant{*value});
    } else {
      details.emplace("error", sdbus::Variant{value.error().message});
    }
    if (pin->sampler && pin->sampler->summary().count > 0) {
      details.emplace("sample", sdbus::Variant{pin->sampler->summary().latest});
      details.emplace("sample_timestamp_ms", sdbus::Variant{pin->sampler->summary().latest_timestamp_ms});
    }
    rows.push_back(sdbus::make_struct(static_cast<std::int32_t>(pin->number()), pin->name(),
                                      std::string(hal::pin_type_name(pin->type())), std::move(details)));
  }
  return rows;
}

}  // namespace mcpud::app
