// SPDX-License-Identifier: MIT
// The daemon's configuration: parsed from TOML, checked against the config
// schema with the same validator as tool arguments, then cross-checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/mcp_config.hpp"
#include "config/uplink_config.hpp"
#include "mcpud/core/sampler.hpp"
#include "mcpud/hal/gpio.hpp"
#include "mcpud/hal/iio_adc.hpp"
#include "mcpud/hal/pins.hpp"
#include "mcpud/hal/sim_board.hpp"
#include "serial/serial_config.hpp"

namespace mcpud::config {

struct PinConfig {
  std::string name;
  int pin = 0;  // the logical pin number clients use
  hal::PinType type = hal::PinType::DigitalOutput;
  std::string description;
  bool initial = false;                 // digital_output
  std::optional<bool> safe_value;       // digital_output: driven on exit
  std::uint32_t frequency_hz = 1000;    // pwm_output
  std::optional<double> safe_duty;      // pwm_output, 0-255: driven on exit
  std::optional<SamplingOptions> sampling;  // inputs
  hal::SimInputSpec sim_input;          // board "sim", digital_input
  hal::SimAnalogSpec sim_analog;        // board "sim", adc_input
  // Boards "raspberrypi" and "linux" (daemon/config/hardware_config.cpp):
  hal::LineAddress line;                // digital pins: chip and line
  hal::OutputSpec gpio_output;          // digital_output
  hal::InputSpec gpio_input;            // digital_input
  hal::IioChannelSpec iio;              // adc_input
  std::string pwm_chip;                 // pwm_output: "pwmchip0"
  unsigned pwm_channel = 0;
  bool pwm_inverted = false;
};

struct TtyConfig {
  std::string path;
  std::uint32_t baud = 115200;
};

// One MCP/U microcontroller whose tools mcpud re-exports as "<id>__<tool>".
struct BridgeConfig {
  std::string id;                     // tool prefix, e.g. "uno"
  std::string port;                   // serial device path; empty for TCP
  std::string tcp;                    // "host:port"; empty for serial
  std::uint32_t baud = 115200;
  std::uint32_t reset_wait_ms = 600;  // after opening (DTR resets the board); default 0 for TCP
  std::uint32_t timeout_ms = 5000;    // per call
  std::uint32_t retry_max_ms = 5000;  // longest wait between reconnect attempts
  std::uint32_t max_in_flight = 16;
  bool operator==(const BridgeConfig&) const = default;
};

struct Limits {
  std::size_t max_line_bytes = 64 * 1024;
  std::size_t client_queue_bytes = 1024 * 1024;
  std::size_t max_clients = 256;
};

struct Config {
  std::string device = "mcpud";
  std::string board = "sim";  // "sim", "raspberrypi" or "linux"
  std::string pwm_sysfs_root = "/sys/class/pwm";
  std::vector<std::string> listen;  // "host:port", "[v6]:port"
  std::vector<TtyConfig> ttys;
  std::string log_level = "info";
  std::string dbus = "system";  // the bus io.mcpud.Daemon1 is served on: system, session, none
  Limits limits;
  std::vector<PinConfig> pins;
  McpFrontDoors mcp;        // [mcp], [unix_socket], [http]
  serial::SerialConfig serial;  // [serial]; SERIAL_MCP_* variables are applied by the daemon
  std::vector<BridgeConfig> bridges;
  UplinkConfig uplink;      // [uplink.*]: services, assistant, fleet
  nlohmann::json resolved;  // the validated document with defaults, for --check-config
};

// Parses TOML text; `source` names it in messages. Errors name the key path
// ("pins[2].type: must be one of ...") or the TOML line and column.
std::expected<Config, std::string> parse(std::string_view toml_text, std::string_view source);
std::expected<Config, std::string> load_file(const std::string& path);
// The built-in simulated board (config/examples/sim.toml, compiled in).
Config builtin();

// "PATH" or "PATH:BAUD" as given to --tty.
std::expected<TtyConfig, std::string> parse_tty(std::string_view spec);

}  // namespace mcpud::config
