// SPDX-License-Identifier: MIT
// PWM channels through the kernel's sysfs interface (/sys/class/pwm): export,
// period and duty cycle in nanoseconds, polarity, enable; unexport when done.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "mcpud/hal/pins.hpp"

namespace mcpud::hal {

struct PwmSysfsSpec {
  std::string root = "/sys/class/pwm";  // a fake tree in tests
  std::string chip;                     // "pwmchip0"
  unsigned channel = 0;
  std::uint32_t frequency_hz = 1000;
  bool inverted = false;
  // After export, udev may need a moment to create the files' permissions.
  std::chrono::milliseconds settle_timeout{2000};
};

// Exports the channel (unless already exported), sets polarity, period and a 0
// duty cycle, and enables it. The returned object unexports what it exported.
HalResult<std::unique_ptr<PwmOutput>> open_sysfs_pwm(const PwmSysfsSpec& spec);

// Period and duty cycle in nanoseconds for a frequency and a duty fraction.
std::uint64_t pwm_period_ns(std::uint32_t frequency_hz);
std::uint64_t pwm_duty_ns(std::uint64_t period_ns, double duty);

}  // namespace mcpud::hal
