// SPDX-License-Identifier: MIT
// Names of pin types as the MCP/U pin registry spells them.
#include "mcpud/hal/pins.hpp"

#include <array>
#include <utility>

namespace mcpud::hal {
namespace {
constexpr std::array<std::pair<PinType, std::string_view>, 5> kNames{{
    {PinType::DigitalOutput, "digital_output"},
    {PinType::DigitalInput, "digital_input"},
    {PinType::PwmOutput, "pwm_output"},
    {PinType::AdcInput, "adc_input"},
    {PinType::SensorInput, "sensor_input"},
}};
}  // namespace

std::string_view pin_type_name(PinType type) {
  for (const auto& [t, name] : kNames) {
    if (t == type) return name;
  }
  return "unknown";
}

bool parse_pin_type(std::string_view name, PinType& out) {
  for (const auto& [t, n] : kNames) {
    if (n == name) {
      out = t;
      return true;
    }
  }
  return false;
}

}  // namespace mcpud::hal
