// SPDX-License-Identifier: MIT
// Pin resources: listing and reading a pin's current value.
#include "mcpud/pins/pin_resources.hpp"

#include <cmath>

#include "mcpud/pins/output_guard.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/sensor_reads.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

// A bridged device's pin has no handle here: what mcpud knows of it is what
// its device last reported (a call's result, the history it samples), and its
// tools are the device's own.
void add_bridged(const BoardPin& pin, json& out) {
  out["device"] = pin.device;
  if (pin.reading.is_object()) out.update(pin.reading);
  if (!pin.sampler || pin.sampler->summary().count == 0) return;
  out["value"] = pin.sampler->summary().latest;
  out["timestamp_ms"] = pin.sampler->summary().latest_timestamp_ms;
}

std::string describe_quantity(const hal::Quantity& q) { return q.unit.empty() ? q.name : q.name + " in " + q.unit; }

Error read_failure(const std::string& pin, const hal::HalError& e) {
  const auto kind =
      e.kind == hal::HalError::Kind::Disconnected ? DomainError::DeviceDisconnected : DomainError::ReadError;
  return Error::domain(kind, "pin " + pin + ": " + e.message);
}

void add_sensor_value(double value, const hal::Quantity& quantity, json& out) {
  out["value"] = value;
  out["unit"] = quantity.unit;
  out["quantity"] = quantity.name;
}

// Adds the current value of a pin that is read at once to `out`, in the units its tools use.
Result<void> add_value(BoardPin& pin, json& out) {
  if (!pin.device.empty()) {
    add_bridged(pin, out);
    return {};
  }
  const auto failed = [&](const hal::HalError& e) { return std::unexpected(read_failure(pin.name(), e)); };
  switch (pin.type()) {
    case hal::PinType::DigitalOutput:
    case hal::PinType::DigitalInput: {
      auto level = pin.input ? pin.input->read() : pin.output->read();
      if (!level) return failed(level.error());
      out["value"] = *level;
      return {};
    }
    case hal::PinType::PwmOutput: {
      const auto state = pin.pwm->state();
      out["duty"] = static_cast<int>(std::lround(state.duty * 255.0));
      out["frequency_hz"] = state.frequency_hz;
      return {};
    }
    case hal::PinType::AdcInput: {
      auto reading = pin.adc->read();
      if (!reading) return failed(reading.error());
      out["value"] = reading->raw;
      out["volts"] = std::round(reading->millivolts) / 1000.0;
      return {};
    }
    case hal::PinType::SensorInput: {
      auto value = pin.sensor->read();
      if (!value) return failed(value.error());
      add_sensor_value(*value, pin.sensor->quantity(), out);
      return {};
    }
  }
  return {};
}

json pin_resource_entry(const BoardPin& pin) {
  std::string type(hal::pin_type_name(pin.type()));
  if (pin.sensor) type += ", " + describe_quantity(pin.sensor->quantity());
  const std::string device = pin.device.empty() ? "" : "[" + pin.device + "] ";
  return {{"uri", std::string(kPinUriPrefix) + pin.name()},
          {"name", pin.name()},
          {"description", device + (pin.config.description.empty() ? type + " pin " + std::to_string(pin.number())
                                                                   : pin.config.description + " (" + type + ")")},
          {"mimeType", "application/json"}};
}

}  // namespace

json list_pin_resources(const PinTable& pins) {
  json out = json::array();
  for (const auto& pin : pins.pins()) out.push_back(pin_resource_entry(*pin));
  pins.for_each_foreign([&](const BoardPin& pin) { out.push_back(pin_resource_entry(pin)); });
  return out;
}

namespace {

BoardPin* pin_of_uri(PinTable& pins, std::string_view uri) {
  return uri.starts_with(kPinUriPrefix) ? pins.find(uri.substr(kPinUriPrefix.size())) : nullptr;
}

}  // namespace

void read_pin_resource(PinTable& pins, SensorReads& reads, std::string_view uri, ToolReply done) {
  BoardPin* pin = pin_of_uri(pins, uri);
  if (!pin) {
    auto missing = Error::domain(DomainError::ResourceNotFound, "Resource not found: " + std::string(uri));
    missing.uri = uri;
    return done(std::unexpected(std::move(missing)));
  }
  json out = {{"pin", pin->number()},
              {"name", pin->name()},
              {"type", hal::pin_type_name(pin->type())},
              {"description", pin->config.description}};
  if (pin->sampler) {
    const auto& options = pin->sampler->options();
    out["sampling"] = {{"interval_ms", options.interval_ms}, {"buffer_size", options.buffer_size}};
  }
  if (pin->guarded && pins.guard()) out["limits"] = pins.guard()->describe(*pin);
  if (pin->device.empty() && pin->sensor && pin->sensor->slow()) {
    // Copies only: the pins may be reloaded before the value arrives.
    return reads.read(pin->sensor, [out = std::move(out), done = std::move(done), name = pin->name(),
                                    quantity = pin->sensor->quantity()](const hal::HalResult<double>& value) mutable {
      if (!value) return done(std::unexpected(read_failure(name, value.error())));
      add_sensor_value(*value, quantity, out);
      done(std::move(out));
    });
  }
  if (auto added = add_value(*pin, out); !added) return done(std::unexpected(added.error()));
  done(std::move(out));
}

bool pin_resource_exists(PinTable& pins, std::string_view uri) { return pin_of_uri(pins, uri) != nullptr; }

}  // namespace mcpud::pins
