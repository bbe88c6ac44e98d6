// SPDX-License-Identifier: MIT
// How the kernel's sensor interfaces scale their values, per kind of channel:
// the quantity and the factor from the kernel's unit to SI.
// Plain data; any thread.
#pragma once

#include <optional>
#include <string_view>

#include "mcpud/hal/sensor.hpp"

namespace mcpud::hal {

struct KernelScale {
  Quantity quantity;
  double to_si = 1;  // kernel value * to_si = value in quantity.unit
};

// IIO channel types (the "temp" of in_temp_raw): the ABI's units
// (Documentation/ABI/testing/sysfs-bus-iio). Unknown types keep the driver's
// value with an empty unit.
KernelScale iio_scale(std::string_view type);
// hwmon attribute kinds (the "temp" of temp1_input): Documentation/hwmon/sysfs-interface.
std::optional<KernelScale> hwmon_scale(std::string_view kind);

}  // namespace mcpud::hal
