// SPDX-License-Identifier: MIT
// Quantities, their SI units, and the kernel's scale of each sensor kind.
#include "sensors/quantities.hpp"

#include <array>
#include <utility>

namespace mcpud::hal {
namespace {

struct Named {
  std::string_view name;
  std::string_view unit;
};

// The units replies name. fan_speed stays in rpm: what every fan datasheet uses.
constexpr std::array<Named, 19> kQuantities{{
    {"temperature", "degC"}, {"humidity", "%RH"},       {"pressure", "Pa"},
    {"voltage", "V"},        {"current", "A"},          {"power", "W"},
    {"energy", "J"},         {"acceleration", "m/s^2"}, {"angular_velocity", "rad/s"},
    {"magnetic_field", "T"}, {"illuminance", "lx"},     {"resistance", "ohm"},
    {"capacitance", "F"},    {"distance", "m"},         {"velocity", "m/s"},
    {"angle", "rad"},        {"fan_speed", "rpm"},      {"proximity", ""},
    {"intensity", ""},
}};

Quantity quantity_of(std::string_view name) {
  for (const auto& q : kQuantities) {
    if (q.name == name) return {std::string(q.name), std::string(q.unit)};
  }
  return {std::string(name), ""};
}

struct KernelKind {
  std::string_view kind;
  std::string_view quantity;
  double to_si;
};

constexpr std::array<KernelKind, 18> kIioTypes{{
    {"temp", "temperature", 1e-3},           // millidegrees Celsius
    {"humidityrelative", "humidity", 1e-3},  // milli percent
    {"pressure", "pressure", 1e3},           // kPa
    {"voltage", "voltage", 1e-3},            // mV
    {"altvoltage", "voltage", 1e-3},
    {"current", "current", 1e-3},  // mA
    {"power", "power", 1e-3},      // mW
    {"energy", "energy", 1},       // J
    {"accel", "acceleration", 1},  // m/s^2
    {"gravity", "acceleration", 1},
    {"anglvel", "angular_velocity", 1},    // rad/s
    {"magn", "magnetic_field", 1e-4},      // Gauss
    {"illuminance", "illuminance", 1},     // lux
    {"resistance", "resistance", 1},       // ohm
    {"capacitance", "capacitance", 1e-9},  // nF
    {"distance", "distance", 1},           // m
    {"velocity", "velocity", 1},           // m/s
    {"angl", "angle", 1},                  // rad
}};

constexpr std::array<KernelKind, 7> kHwmonKinds{{
    {"temp", "temperature", 1e-3},   // millidegrees Celsius
    {"in", "voltage", 1e-3},         // mV
    {"curr", "current", 1e-3},       // mA
    {"power", "power", 1e-6},        // uW
    {"energy", "energy", 1e-6},      // uJ
    {"humidity", "humidity", 1e-3},  // milli percent
    {"fan", "fan_speed", 1},         // rpm
}};

}  // namespace

std::optional<Quantity> quantity_named(std::string_view name) {
  for (const auto& q : kQuantities) {
    if (q.name == name) return Quantity{std::string(q.name), std::string(q.unit)};
  }
  return std::nullopt;
}

std::string known_quantities() {
  std::string text;
  for (const auto& q : kQuantities) text += (text.empty() ? "" : ", ") + std::string(q.name);
  return text;
}

KernelScale iio_scale(std::string_view type) {
  for (const auto& k : kIioTypes) {
    if (k.kind == type) return {quantity_of(k.quantity), k.to_si};
  }
  // proximity, intensity, ... have no physical unit; other types are kept as the driver gives them.
  return {quantity_of(type), 1};
}

std::optional<KernelScale> hwmon_scale(std::string_view kind) {
  for (const auto& k : kHwmonKinds) {
    if (k.kind == kind) return KernelScale{quantity_of(k.quantity), k.to_si};
  }
  return std::nullopt;
}

}  // namespace mcpud::hal
