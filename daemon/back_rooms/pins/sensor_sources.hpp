// SPDX-License-Identifier: MIT
// Opening the sensor a sensor_input pin's configuration names (IIO channel,
// hwmon input, thermal zone, 1-Wire thermometer) in a sysfs tree.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <memory>
#include <string>

#include "mcpud/hal/sensor.hpp"
#include "mcpud/pins/pin_config.hpp"

namespace mcpud::pins {

// Errors name the path and what to check (hal's messages).
hal::HalResult<std::unique_ptr<hal::SensorInput>> open_sensor(const std::string& sysfs_root,
                                                              const SensorSource& source);
// "IIO bme280/temp", for messages.
std::string describe(const SensorSource& source);

}  // namespace mcpud::pins
