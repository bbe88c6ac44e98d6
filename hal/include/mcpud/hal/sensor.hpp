// SPDX-License-Identifier: MIT
// Sensor inputs read in SI units (IIO channels of every kind; hwmon, thermal
// zones and 1-Wire thermometers follow the same interface), and the quantities
// and units they report.
// Event loop only, except that a slow() sensor is read on the daemon's sensor
// worker thread (one read at a time; docs/ARCHITECTURE.md, Threads).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcpud/hal/pins.hpp"

namespace mcpud::hal {

// What a sensor measures and the unit of its values: {"temperature", "degC"}.
struct Quantity {
  std::string name;
  std::string unit;
};

class SensorInput {
 public:
  virtual ~SensorInput() = default;
  // The present value in `quantity().unit`. A device that went away gives
  // Kind::Disconnected; the next read after it is back succeeds again.
  virtual HalResult<double> read() = 0;
  virtual const Quantity& quantity() const = 0;
  // True when read() may block for long (a 1-Wire conversion: up to 750 ms):
  // such a sensor is read off the event loop, never two reads at once, and
  // quantity() must not change after construction.
  virtual bool slow() const { return false; }
};

// The quantity a simulated or configured sensor names ("temperature", "humidity",
// ...), with its unit; nullopt for a name mcpud does not know.
std::optional<Quantity> quantity_named(std::string_view name);
// Every name quantity_named knows, comma-separated, for error messages.
std::string known_quantities();

// The sysfs tree sensors are found in: "/sys", or a fake tree in tests.
struct SysfsRoot {
  std::string path = "/sys";
};

// An IIO channel read from sysfs (<root>/bus/iio/devices): `device` is its name,
// label or id ("iio:device0"), `channel` as the kernel names its files without
// the in_ prefix and the _raw/_input suffix ("temp", "humidityrelative",
// "voltage0", "accel_x"). The value is <chan>_input where the driver gives one,
// else (raw + offset) * scale, converted from IIO's units to SI (millidegrees
// to degC, kPa to Pa, mV to V, ...). Errors name the path and what exists.
HalResult<std::unique_ptr<SensorInput>> open_iio_sensor(const SysfsRoot& root, const std::string& device,
                                                        const std::string& channel);

// An hwmon input: the chip whose `name` file reads `chip` ("cpu_thermal",
// "lm75"; or its id "hwmon2") under <root>/class/hwmon, and its input `input`
// ("temp1", "in0", "curr1", "power1", "fan1", "humidity1"): <input>_input,
// converted to SI (millidegrees to degC, mV to V, uW to W, ...; fans in rpm).
HalResult<std::unique_ptr<SensorInput>> open_hwmon_sensor(const SysfsRoot& root, const std::string& chip,
                                                          const std::string& input);

// A thermal zone by its `type` ("cpu-thermal"; or its id "thermal_zone0") under
// <root>/class/thermal: its `temp` in degC.
HalResult<std::unique_ptr<SensorInput>> open_thermal_zone(const SysfsRoot& root, const std::string& type);

}  // namespace mcpud::hal
