// SPDX-License-Identifier: MIT
// Thermal zones (/sys/class/thermal/thermal_zone*/temp) found by their type, in degC.
#include "mcpud/hal/sensor.hpp"
#include "sensors/sysfs_text.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

// thermal_zone<N> directories, known by their `type` file.
constexpr SysfsClass kThermalZones{.dir = "class/thermal",
                                   .prefix = "thermal_zone",
                                   .attribute = "type",
                                   .missing = "the kernel has no thermal support (CONFIG_THERMAL)",
                                   .entry = "thermal zone of type",
                                   .entries = "zones",
                                   .hint = ""};

class ThermalZone final : public RelocatingSensor {
 public:
  ThermalZone(SysfsRoot root, std::string type, fs::path dir)
      : RelocatingSensor(*quantity_named("temperature"), std::move(root), std::move(type), std::move(dir)) {}

 private:
  HalResult<fs::path> locate() const override {
    return found_again(find_in_class(root(), kThermalZones, key()), "thermal zone '" + key() + "'");
  }

  HalResult<double> read_in(const fs::path& dir) const override {
    auto millidegrees = read_sysfs_number(dir / "temp");
    if (!millidegrees) return millidegrees;
    return *millidegrees / 1000.0;
  }
};

}  // namespace

HalResult<std::unique_ptr<SensorInput>> open_thermal_zone(const SysfsRoot& root, const std::string& type) {
  auto dir = find_in_class(root, kThermalZones, type);
  if (!dir) return std::unexpected(dir.error());
  return after_first_read(std::make_unique<ThermalZone>(root, type, *dir));
}

}  // namespace mcpud::hal
