// SPDX-License-Identifier: MIT
// TOML configuration files for tests that need something other than the
// built-in simulated board: the same five pins, with a chosen device name,
// limits and extra pins.
#pragma once

#include <string>

namespace mcpud::it {

struct SimConfig {
  std::string device = "mcpud-sim";
  std::string limits;      // lines for the [limits] table, e.g. "max_clients = 2"
  std::string extra_pins;  // more [[pins]] tables, appended at the end
};

// A board without pins, on a kernel-chosen port: its I2C and SPI tools reach
// the kernel's device nodes (the simulated board's are its own).
inline std::string no_pins_config_toml() { return "board = \"none\"\nlisten = [\"127.0.0.1:0\"]\n"; }

inline std::string sim_config_toml(const SimConfig& c = {}) {
  std::string text = "device = \"" + c.device + "\"\nboard = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n";
  text += "\n[limits]\n" + c.limits + "\n";
  text += R"(
[[pins]]
name = "led"
pin = 2
type = "digital_output"
description = "Onboard LED"
initial = false
safe_value = false

[[pins]]
name = "led_sense"
pin = 3
type = "digital_input"
sim = { mode = "loopback", from = "led" }
sampling = { interval_ms = 50, edges = "both" }

[[pins]]
name = "button"
pin = 4
type = "digital_input"
sim = { mode = "square", period_ms = 4000 }
sampling = { interval_ms = 100, buffer_size = 20, edges = "both" }

[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
pwm = { frequency_hz = 25000 }
safe_duty = 0

[[pins]]
name = "light"
pin = 34
type = "adc_input"
sim = { waveform = "sine", min = 100, max = 1000, period_ms = 20000 }
sampling = { interval_ms = 500, buffer_size = 20, thresholds = [200.0, 900.0], hysteresis = 20.0 }
)";
  text += c.extra_pins;
  return text;
}

}  // namespace mcpud::it
