// SPDX-License-Identifier: MIT
// hwmon inputs (<kind><n>_input) found by their chip's name, in SI units.
#include "mcpud/hal/sensor.hpp"
#include "sensors/quantities.hpp"
#include "sensors/sysfs_text.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

// hwmon<N> directories, known by their `name` file.
constexpr SysfsClass kHwmonChips{.dir = "class/hwmon",
                                 .prefix = "hwmon",
                                 .attribute = "name",
                                 .missing = "the kernel has no hwmon support (CONFIG_HWMON)",
                                 .entry = "hwmon chip named",
                                 .entries = "chips",
                                 .hint = "check that its driver is loaded; "};

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

class HwmonSensor final : public RelocatingSensor {
 public:
  HwmonSensor(SysfsRoot root, std::string chip, std::string input, KernelScale scale, fs::path dir)
      : RelocatingSensor(scale.quantity, std::move(root), std::move(chip), std::move(dir)),
        input_(std::move(input)),
        to_si_(scale.to_si) {}

 private:
  HalResult<fs::path> locate() const override {
    auto chip = found_again(find_in_class(root(), kHwmonChips, key()), "hwmon chip '" + key() + "'");
    if (!chip) return chip;
    return input_dir(*chip, input_);
  }

  HalResult<double> read_in(const fs::path& dir) const override {
    return read_sysfs_scaled(dir / (input_ + "_input"), to_si_);
  }

  std::string input_;
  double to_si_;
};

}  // namespace

HalResult<std::unique_ptr<SensorInput>> open_hwmon_sensor(const SysfsRoot& root, const std::string& chip,
                                                          const std::string& input) {
  const auto scale = hwmon_scale(leading_letters(input));
  if (!scale) {
    return std::unexpected(HalError{HalError::Kind::InvalidArgument,
                                    "hwmon input '" + input +
                                        "' is not one mcpud reads: give temp<N>, in<N>, curr<N>, power<N>, "
                                        "energy<N>, humidity<N> or fan<N>"});
  }
  auto dir = find_in_class(root, kHwmonChips, chip);
  if (!dir) return std::unexpected(dir.error());
  const auto inputs = input_dir(*dir, input);
  std::error_code ec;
  if (!fs::exists(inputs / (input + "_input"), ec)) {
    return std::unexpected(
        HalError{HalError::Kind::NotFound,
                 "hwmon chip '" + chip + "' (" + dir->string() + ") has no " + input + "_input; " + list_inputs(*dir)});
  }
  return after_first_read(std::make_unique<HwmonSensor>(root, chip, input, *scale, inputs));
}

}  // namespace mcpud::hal
