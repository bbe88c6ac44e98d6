// SPDX-License-Identifier: MIT
// Thermal zones (/sys/class/thermal/thermal_zone*/temp) found by their type, in degC.
#include "mcpud/hal/sensor.hpp"
#include "sensors/sysfs_text.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

fs::path thermal_dir(const SysfsRoot& root) { return fs::path(root.path) / "class/thermal"; }

HalResult<fs::path> find_zone(const SysfsRoot& root, const std::string& type) {
  const auto dir = thermal_dir(root);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return std::unexpected(
        HalError{HalError::Kind::NotFound,
                 dir.string() + " does not exist: the kernel has no thermal support (CONFIG_THERMAL)"});
  }
  auto found = find_entry(dir, "thermal_zone", "type", type);
  if (found.empty()) {
    return std::unexpected(
        HalError{HalError::Kind::NotFound, "no thermal zone of type '" + type + "' in " + dir.string() +
                                               "; zones: " + list_entries(dir, "thermal_zone", "type") + " (`cat " +
                                               dir.string() + "/thermal_zone*/type` lists them)"});
  }
  return found;
}

class ThermalZone final : public RelocatingSensor {
 public:
  ThermalZone(SysfsRoot root, std::string type, fs::path dir)
      : RelocatingSensor(*quantity_named("temperature"), std::move(dir)),
        root_(std::move(root)),
        type_(std::move(type)) {}

 private:
  HalResult<fs::path> locate() const override {
    auto zone = find_zone(root_, type_);
    if (!zone)
      return std::unexpected(
          HalError{zone.error().kind, "thermal zone '" + type_ + "' is gone: " + zone.error().message});
    return zone;
  }

  HalResult<double> read_in(const fs::path& dir) const override {
    auto millidegrees = read_sysfs_number(dir / "temp");
    if (!millidegrees) return millidegrees;
    return *millidegrees / 1000.0;
  }

  SysfsRoot root_;
  std::string type_;
};

}  // namespace

HalResult<std::unique_ptr<SensorInput>> open_thermal_zone(const SysfsRoot& root, const std::string& type) {
  auto dir = find_zone(root, type);
  if (!dir) return std::unexpected(dir.error());
  auto zone = std::make_unique<ThermalZone>(root, type, *dir);
  if (auto first = zone->read(); !first) return std::unexpected(first.error());
  return zone;
}

}  // namespace mcpud::hal
