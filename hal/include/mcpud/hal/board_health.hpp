// SPDX-License-Identifier: MIT
// The board's health as Linux shows it: CPU temperature (thermal zone), the
// Raspberry Pi firmware's throttling and under-voltage flags, load averages,
// memory and uptime. Each part is absent when the system does not expose it.
// Plain data and functions without state; event loop only (they read files).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "mcpud/hal/sensor.hpp"

namespace mcpud::hal {

struct CpuTemperature {
  double celsius = 0;
  std::string zone;  // the thermal zone's type, e.g. "cpu-thermal"
};

// The firmware's flags. From get_throttled every flag is known; from the
// rpi_volt hwmon chip only under_voltage_now (the others stay nullopt).
struct Throttling {
  std::string source;  // the file read
  std::optional<std::uint32_t> raw;
  bool under_voltage_now = false;
  std::optional<bool> frequency_capped_now, throttled_now, soft_temperature_limit_now;
  std::optional<bool> under_voltage_occurred, frequency_capped_occurred, throttled_occurred,
      soft_temperature_limit_occurred;
};

struct Memory {
  std::uint64_t total_bytes = 0;
  std::uint64_t available_bytes = 0;
};

struct BoardHealth {
  std::optional<CpuTemperature> cpu_temperature;
  std::optional<Throttling> throttling;
  std::optional<std::array<double, 3>> load;  // 1, 5, 15 minutes
  std::optional<Memory> memory;
  std::optional<double> uptime_s;
};

// Reads everything that exists under `sys` and `proc_root` ("/proc").
BoardHealth read_board_health(const SysfsRoot& sys, const std::string& proc_root);

}  // namespace mcpud::hal
