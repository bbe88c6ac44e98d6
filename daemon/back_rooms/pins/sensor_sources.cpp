// SPDX-License-Identifier: MIT
// From a sensor_input's configured source to its hal sensor.
#include "sensor_sources.hpp"

#include "mcpud/hal/onewire.hpp"

namespace mcpud::pins {

hal::HalResult<std::unique_ptr<hal::SensorInput>> open_sensor(const std::string& sysfs_root,
                                                              const SensorSource& source) {
  const hal::SysfsRoot root{sysfs_root};
  switch (source.kind) {
    case SensorSource::Kind::Iio:
      return hal::open_iio_sensor(root, source.device, source.channel);
    case SensorSource::Kind::Hwmon:
      return hal::open_hwmon_sensor(root, source.device, source.channel);
    case SensorSource::Kind::Thermal:
      return hal::open_thermal_zone(root, source.device);
    case SensorSource::Kind::OneWire:
      return hal::open_onewire_thermometer(root, source.device);
    case SensorSource::Kind::None:
      break;
  }
  return std::unexpected(hal::HalError{hal::HalError::Kind::InvalidArgument, "no sensor source configured"});
}

std::string describe(const SensorSource& source) {
  switch (source.kind) {
    case SensorSource::Kind::Iio:
      return "IIO " + source.device + "/" + source.channel;
    case SensorSource::Kind::Hwmon:
      return "hwmon " + source.device + "/" + source.channel;
    case SensorSource::Kind::Thermal:
      return "thermal zone " + source.device;
    case SensorSource::Kind::OneWire:
      return "1-Wire " + source.device;
    case SensorSource::Kind::None:
      break;
  }
  return "sensor";
}

}  // namespace mcpud::pins
