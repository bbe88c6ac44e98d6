// SPDX-License-Identifier: MIT
// 1-Wire slaves and thermometers through the kernel's w1 sysfs files.
#include "mcpud/hal/onewire.hpp"

#include <array>
#include <cctype>
#include <string_view>

#include "sensors/sysfs_text.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

fs::path w1_dir(const SysfsRoot& root) { return fs::path(root.path) / "bus/w1/devices"; }

struct Family {
  std::string_view code;
  std::string_view chip;
  bool thermometer;
};

// The families the kernel's w1_therm driver reads, and common others.
constexpr std::array<Family, 12> kFamilies{{
    {"10", "DS18S20", true},
    {"22", "DS1822", true},
    {"28", "DS18B20", true},
    {"3b", "DS1825", true},
    {"42", "DS28EA00", true},
    {"01", "DS2401", false},
    {"12", "DS2406", false},
    {"1d", "DS2423", false},
    {"26", "DS2438", false},
    {"29", "DS2408", false},
    {"2d", "DS2431", false},
    {"3a", "DS2413", false},
}};

OneWireDevice describe(const std::string& id) {
  OneWireDevice device{id, id.substr(0, 2), "", false};
  for (auto& c : device.family) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& f : kFamilies) {
    if (f.code == device.family) {
      device.chip = f.chip;
      device.thermometer = f.thermometer;
    }
  }
  return device;
}

HalError no_bus(const fs::path& dir) {
  return HalError{HalError::Kind::NotFound,
                  dir.string() +
                      " does not exist: no 1-Wire bus master is loaded (on a Raspberry Pi "
                      "add dtoverlay=w1-gpio to /boot/firmware/config.txt; GPIO4 by default)"};
}

// The temperature in w1_slave's second line ("... t=23125"), once the first
// line's CRC check says YES.
HalResult<double> parse_w1_slave(const std::string& text, const fs::path& path) {
  const auto newline = text.find('\n');
  const std::string crc_line = text.substr(0, newline);
  if (crc_line.ends_with("NO")) {
    return std::unexpected(HalError{HalError::Kind::Io, path.string() +
                                                            ": CRC check failed (the sensor's answer was garbled); "
                                                            "check the wiring and the 4.7 kOhm pull-up to 3.3 V"});
  }
  const auto t = text.find("t=", newline == std::string::npos ? text.size() : newline);
  if (!crc_line.ends_with("YES") || t == std::string::npos) {
    return std::unexpected(
        HalError{HalError::Kind::Io, path.string() + ": not a thermometer's reading: '" + crc_line + "'"});
  }
  try {
    return std::stod(text.substr(t + 2)) / 1000.0;
  } catch (const std::exception&) {
    return std::unexpected(HalError{HalError::Kind::Io, path.string() + ": no number after t="});
  }
}

class OneWireThermometer final : public RelocatingSensor {
 public:
  OneWireThermometer(SysfsRoot root, std::string id, fs::path dir)
      : RelocatingSensor(*quantity_named("temperature"), std::move(root), std::move(id), std::move(dir)) {}
  bool slow() const override { return true; }

 private:
  HalResult<fs::path> locate() const override {
    const auto dir = w1_dir(root()) / key();
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      return std::unexpected(
          HalError{HalError::Kind::NotFound, "1-Wire device " + key() + " is not on the bus (no " + dir.string() +
                                                 "); check its wiring, or onewire_list for the ids present"});
    }
    return dir;
  }

  HalResult<double> read_in(const fs::path& dir) const override {
    std::error_code ec;
    if (fs::exists(dir / "temperature", ec)) {
      auto millidegrees = read_sysfs_number(dir / "temperature");
      if (!millidegrees) return millidegrees;
      return *millidegrees / 1000.0;
    }
    auto text = read_sysfs_text(dir / "w1_slave");
    if (!text) return std::unexpected(text.error());
    return parse_w1_slave(*text, dir / "w1_slave");
  }
};

}  // namespace

HalResult<std::vector<OneWireDevice>> list_onewire(const SysfsRoot& root) {
  const auto dir = w1_dir(root);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::unexpected(no_bus(dir));
  std::vector<OneWireDevice> devices;
  for (const auto& entry : list_dir(dir)) {
    if (entry.starts_with("w1_bus_master") || entry.size() < 4 || entry[2] != '-') continue;
    devices.push_back(describe(entry));
  }
  return devices;
}

HalResult<std::unique_ptr<SensorInput>> open_onewire_thermometer(const SysfsRoot& root, const std::string& id) {
  const auto device = describe(id);
  if (!device.thermometer) {
    return std::unexpected(HalError{HalError::Kind::InvalidArgument,
                                    "1-Wire device " + id + " (family " + device.family +
                                        (device.chip.empty() ? "" : ", " + device.chip) +
                                        ") is not a thermometer; thermometers are families 10, 22, 28, 3b, 42"});
  }
  std::error_code ec;
  if (!fs::is_directory(w1_dir(root), ec)) return std::unexpected(no_bus(w1_dir(root)));
  const auto dir = w1_dir(root) / id;
  if (!fs::is_directory(dir, ec)) {
    std::string present;
    if (auto devices = list_onewire(root)) {
      for (const auto& d : *devices) present += (present.empty() ? "" : ", ") + d.id;
    }
    return std::unexpected(HalError{
        HalError::Kind::NotFound,
        "no 1-Wire device " + id + " in " + w1_dir(root).string() + "; " +
            (present.empty() ? "the bus has none (check the wiring and the pull-up)" : "devices: " + present)});
  }
  // No first read: a conversion takes up to 750 ms, and a CRC error now says
  // nothing about the next read.
  return std::make_unique<OneWireThermometer>(root, id, dir);
}

}  // namespace mcpud::hal
