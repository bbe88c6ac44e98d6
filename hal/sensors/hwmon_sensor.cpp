// SPDX-License-Identifier: MIT
// hwmon inputs (<kind><n>_input) found by their chip's name, in SI units.
#include <cctype>

#include "mcpud/hal/sensor.hpp"
#include "sensors/quantities.hpp"
#include "sensors/sysfs_text.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

fs::path hwmon_dir(const SysfsRoot& root) { return fs::path(root.path) / "class/hwmon"; }

// "temp1" -> "temp", "in0" -> "in".
std::string input_kind(const std::string& input) {
  std::size_t end = 0;
  while (end < input.size() && std::isalpha(static_cast<unsigned char>(input[end]))) ++end;
  return input.substr(0, end);
}

// Where the chip keeps <input>_input: its own directory, or (older drivers) its device's.
fs::path input_dir(const fs::path& chip, const std::string& input) {
  std::error_code ec;
  if (fs::exists(chip / (input + "_input"), ec) || !fs::exists(chip / "device" / (input + "_input"), ec)) return chip;
  return chip / "device";
}

std::string list_inputs(const fs::path& chip) {
  std::string text;
  for (const auto& dir : {chip, chip / "device"}) {
    for (const auto& entry : list_dir(dir)) {
      if (entry.ends_with("_input")) text += (text.empty() ? "" : ", ") + entry.substr(0, entry.size() - 6);
    }
  }
  return text.empty() ? "it has no inputs" : "its inputs: " + text;
}

HalResult<fs::path> find_chip(const SysfsRoot& root, const std::string& chip) {
  const auto dir = hwmon_dir(root);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return std::unexpected(HalError{HalError::Kind::NotFound,
                                    dir.string() + " does not exist: the kernel has no hwmon support (CONFIG_HWMON)"});
  }
  auto found = find_entry(dir, "hwmon", "name", chip);
  if (found.empty()) {
    return std::unexpected(HalError{HalError::Kind::NotFound, "no hwmon chip named '" + chip + "' in " + dir.string() +
                                                                  "; chips: " + list_entries(dir, "hwmon", "name") +
                                                                  " (check that its driver is loaded; `cat " +
                                                                  dir.string() + "/hwmon*/name` lists them)"});
  }
  return found;
}

class HwmonSensor final : public RelocatingSensor {
 public:
  HwmonSensor(SysfsRoot root, std::string chip, std::string input, KernelScale scale, fs::path dir)
      : RelocatingSensor(scale.quantity, std::move(dir)),
        root_(std::move(root)),
        chip_(std::move(chip)),
        input_(std::move(input)),
        to_si_(scale.to_si) {}

 private:
  HalResult<fs::path> locate() const override {
    auto chip = find_chip(root_, chip_);
    if (!chip)
      return std::unexpected(
          HalError{chip.error().kind, "hwmon chip '" + chip_ + "' is gone: " + chip.error().message});
    return input_dir(*chip, input_);
  }

  HalResult<double> read_in(const fs::path& dir) const override {
    auto value = read_sysfs_number(dir / (input_ + "_input"));
    if (!value) return value;
    return *value * to_si_;
  }

  SysfsRoot root_;
  std::string chip_;
  std::string input_;
  double to_si_;
};

}  // namespace

HalResult<std::unique_ptr<SensorInput>> open_hwmon_sensor(const SysfsRoot& root, const std::string& chip,
                                                          const std::string& input) {
  const auto scale = hwmon_scale(input_kind(input));
  if (!scale) {
    return std::unexpected(HalError{HalError::Kind::InvalidArgument,
                                    "hwmon input '" + input +
                                        "' is not one mcpud reads: give temp<N>, in<N>, curr<N>, power<N>, "
                                        "energy<N>, humidity<N> or fan<N>"});
  }
  auto dir = find_chip(root, chip);
  if (!dir) return std::unexpected(dir.error());
  const auto inputs = input_dir(*dir, input);
  std::error_code ec;
  if (!fs::exists(inputs / (input + "_input"), ec)) {
    return std::unexpected(
        HalError{HalError::Kind::NotFound,
                 "hwmon chip '" + chip + "' (" + dir->string() + ") has no " + input + "_input; " + list_inputs(*dir)});
  }
  auto sensor = std::make_unique<HwmonSensor>(root, chip, input, *scale, inputs);
  // A first read proves the file can be read (permissions) before the pin is offered.
  if (auto first = sensor->read(); !first) return std::unexpected(first.error());
  return sensor;
}

}  // namespace mcpud::hal
