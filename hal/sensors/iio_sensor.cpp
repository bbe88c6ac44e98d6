// SPDX-License-Identifier: MIT
// IIO channels of every kind read from sysfs, in SI units.
#include "mcpud/hal/sensor.hpp"
#include "sensors/quantities.hpp"
#include "sensors/sysfs_text.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

fs::path iio_dir(const SysfsRoot& root) { return fs::path(root.path) / "bus/iio/devices"; }

// "voltage0" -> "voltage", "accel_x" -> "accel", "temp" -> "temp": the part
// shared attributes (in_voltage_scale) are named by.
std::string channel_type(const std::string& channel) { return leading_letters(channel); }

bool is_device_dir(const std::string& entry) { return entry.starts_with("iio:device"); }

std::string list_devices(const fs::path& dir) {
  std::string text;
  for (const auto& entry : list_dir(dir)) {
    if (!is_device_dir(entry)) continue;
    text += (text.empty() ? "" : ", ") + entry;
    if (auto name = read_sysfs_or_empty(dir / entry / "name"); !name.empty()) text += " (" + name + ")";
  }
  return text.empty() ? "there is none" : "devices: " + text;
}

// Channels with a value to read: in_<chan>_input or in_<chan>_raw.
std::string list_channels(const fs::path& dir) {
  std::string text;
  std::string last;
  for (const auto& entry : list_dir(dir)) {
    if (!entry.starts_with("in_")) continue;
    for (const std::string_view suffix : {"_input", "_raw"}) {
      if (!entry.ends_with(suffix)) continue;
      auto channel = entry.substr(3, entry.size() - 3 - suffix.size());
      if (channel == last) continue;
      text += (text.empty() ? "" : ", ") + channel;
      last = channel;
    }
  }
  return text.empty() ? "it has no input channels" : "its channels: " + text;
}

HalResult<fs::path> find_device(const SysfsRoot& root, const std::string& device) {
  const auto dir = iio_dir(root);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return std::unexpected(HalError{HalError::Kind::NotFound,
                                    dir.string() + " does not exist: no IIO driver is loaded (check the device tree "
                                                   "overlay, e.g. dtoverlay=i2c-sensor,bme280, and dmesg)"});
  }
  for (const auto& entry : list_dir(dir)) {
    if (!is_device_dir(entry)) continue;
    if (entry == device || read_sysfs_or_empty(dir / entry / "name") == device ||
        read_sysfs_or_empty(dir / entry / "label") == device)
      return dir / entry;
  }
  return std::unexpected(HalError{HalError::Kind::NotFound,
                                  "no IIO device named '" + device + "' in " + dir.string() + "; " + list_devices(dir) +
                                      " (check that its driver is loaded and the name matches its `name` file)"});
}

class IioSensor final : public RelocatingSensor {
 public:
  IioSensor(SysfsRoot root, std::string device, std::string channel, fs::path dir)
      : RelocatingSensor(iio_scale(channel_type(channel)).quantity, std::move(root), std::move(device), std::move(dir)),
        channel_(std::move(channel)),
        type_(channel_type(channel_)),
        to_si_(iio_scale(type_).to_si) {}

 private:
  HalResult<fs::path> locate() const override {
    return found_again(find_device(root(), key()), "IIO device '" + key() + "'");
  }

  HalResult<double> read_in(const fs::path& dir) const override {
    const auto prefix = "in_" + channel_;
    std::error_code ec;
    if (fs::exists(dir / (prefix + "_input"), ec)) return read_sysfs_scaled(dir / (prefix + "_input"), to_si_);
    auto raw = read_sysfs_number(dir / (prefix + "_raw"));
    if (!raw) return raw;
    auto offset = attribute(dir, "offset", 0);
    if (!offset) return offset;
    auto scale = attribute(dir, "scale", 1);
    if (!scale) return scale;
    return (*raw + *offset) * *scale * to_si_;
  }

  // in_<chan>_<name>, else the type's shared in_<type>_<name>, else `fallback`.
  HalResult<double> attribute(const fs::path& dir, const std::string& name, double fallback) const {
    std::error_code ec;
    for (const auto& owner : {channel_, type_}) {
      const auto path = dir / ("in_" + owner + "_" + name);
      if (fs::exists(path, ec)) return read_sysfs_number(path);
    }
    return fallback;
  }

  std::string channel_;
  std::string type_;
  double to_si_;
};

}  // namespace

HalResult<std::unique_ptr<SensorInput>> open_iio_sensor(const SysfsRoot& root, const std::string& device,
                                                        const std::string& channel) {
  auto dir = find_device(root, device);
  if (!dir) return std::unexpected(dir.error());
  std::error_code ec;
  const auto prefix = "in_" + channel;
  if (!fs::exists(*dir / (prefix + "_input"), ec) && !fs::exists(*dir / (prefix + "_raw"), ec)) {
    return std::unexpected(HalError{HalError::Kind::NotFound, "IIO device '" + device + "' (" + dir->string() +
                                                                  ") has no input channel '" + channel + "' (no " +
                                                                  prefix + "_input or " + prefix + "_raw); " +
                                                                  list_channels(*dir)});
  }
  return after_first_read(std::make_unique<IioSensor>(root, device, channel, *dir));
}

}  // namespace mcpud::hal
