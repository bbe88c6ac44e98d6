// SPDX-License-Identifier: MIT
// 1-Wire devices the kernel's w1 subsystem found (<root>/bus/w1/devices), and
// its thermometers (DS18B20 and kin) as sensors in degC.
// Event loop only; a thermometer is slow() and read on the sensor worker thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mcpud/hal/sensor.hpp"

namespace mcpud::hal {

struct OneWireDevice {
  std::string id;      // "28-00000a1b2c3d"
  std::string family;  // "28": the id's first byte
  std::string chip;    // "DS18B20", or "" for a family mcpud does not know
  bool thermometer = false;
};

// The slaves on every bus master, sorted by id. NotFound, naming the path and the
// overlay to check, when the kernel has no 1-Wire bus.
HalResult<std::vector<OneWireDevice>> list_onewire(const SysfsRoot& root);

// A 1-Wire thermometer by id: its `temperature` file (millidegrees) where the
// kernel has one, else `w1_slave`, whose CRC line must say YES (NO is a read
// error, not a value). A sensor that left the bus is Kind::Disconnected. The
// kernel converts during the read (up to 750 ms at 12 bits): the sensor is slow().
HalResult<std::unique_ptr<SensorInput>> open_onewire_thermometer(const SysfsRoot& root, const std::string& id);

}  // namespace mcpud::hal
