// SPDX-License-Identifier: MIT
// Board health from /sys and /proc.
#include "mcpud/hal/board_health.hpp"

#include <fstream>
#include <sstream>

#include "sensors/sysfs_text.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

// The zones that are the CPU on common boards, in order of preference; else the first zone.
std::optional<CpuTemperature> cpu_temperature(const SysfsRoot& sys) {
  const fs::path dir = fs::path(sys.path) / "class/thermal";
  fs::path chosen;
  for (const char* type : {"cpu-thermal", "cpu_thermal", "soc-thermal", "x86_pkg_temp"}) {
    chosen = find_entry(dir, "thermal_zone", "type", type);
    if (!chosen.empty()) break;
  }
  if (chosen.empty()) chosen = find_entry(dir, "thermal_zone", "type", "thermal_zone0");
  if (chosen.empty()) return std::nullopt;
  auto millidegrees = read_sysfs_number(chosen / "temp");
  if (!millidegrees) return std::nullopt;
  return CpuTemperature{*millidegrees / 1000.0, read_sysfs_or_empty(chosen / "type")};
}

// get_throttled's bits (Raspberry Pi firmware, vcgencmd get_throttled).
Throttling from_get_throttled(std::uint32_t bits, std::string source) {
  const auto bit = [bits](int n) { return (bits >> n & 1u) != 0; };
  Throttling t;
  t.source = std::move(source);
  t.raw = bits;
  t.under_voltage_now = bit(0);
  t.frequency_capped_now = bit(1);
  t.throttled_now = bit(2);
  t.soft_temperature_limit_now = bit(3);
  t.under_voltage_occurred = bit(16);
  t.frequency_capped_occurred = bit(17);
  t.throttled_occurred = bit(18);
  t.soft_temperature_limit_occurred = bit(19);
  return t;
}

std::optional<Throttling> throttling(const SysfsRoot& sys) {
  const fs::path firmware = fs::path(sys.path) / "devices/platform/soc/soc:firmware/get_throttled";
  if (auto text = read_sysfs_text(firmware)) {
    try {
      return from_get_throttled(static_cast<std::uint32_t>(std::stoul(*text, nullptr, 16)), firmware.string());
    } catch (const std::exception&) {
      // Not the firmware's hex number: fall back to the hwmon chip.
    }
  }
  const fs::path chip = find_entry(fs::path(sys.path) / "class/hwmon", "hwmon", "name", "rpi_volt");
  if (chip.empty()) return std::nullopt;
  auto alarm = read_sysfs_number(chip / "in0_lcrit_alarm");
  if (!alarm) return std::nullopt;
  Throttling t;
  t.source = (chip / "in0_lcrit_alarm").string();
  t.under_voltage_now = *alarm != 0;
  return t;
}

std::optional<std::array<double, 3>> load(const std::string& proc) {
  std::ifstream in(proc + "/loadavg");
  std::array<double, 3> values{};
  if (!(in >> values[0] >> values[1] >> values[2])) return std::nullopt;
  return values;
}

std::optional<Memory> memory(const std::string& proc) {
  std::ifstream in(proc + "/meminfo");
  std::optional<std::uint64_t> total, available;
  std::string key;
  std::uint64_t kib = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    if (!(fields >> key >> kib)) continue;
    if (key == "MemTotal:") total = kib * 1024;
    if (key == "MemAvailable:") available = kib * 1024;
  }
  if (!total || !available) return std::nullopt;
  return Memory{*total, *available};
}

std::optional<double> uptime(const std::string& proc) {
  std::ifstream in(proc + "/uptime");
  double seconds = 0;
  if (!(in >> seconds)) return std::nullopt;
  return seconds;
}

}  // namespace

BoardHealth read_board_health(const SysfsRoot& sys, const std::string& proc_root) {
  return {cpu_temperature(sys), throttling(sys), load(proc_root), memory(proc_root), uptime(proc_root)};
}

}  // namespace mcpud::hal
