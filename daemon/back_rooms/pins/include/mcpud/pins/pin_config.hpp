// SPDX-License-Identifier: MIT
// The pins back room's part of mcpud.toml: the board kind, the PWM sysfs root and
// the [[pins]] tables; their schema and the checks a schema cannot express.
// Plain data and functions without state; any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/sampler.hpp"
#include "mcpud/hal/gpio.hpp"
#include "mcpud/hal/iio_adc.hpp"
#include "mcpud/hal/pins.hpp"
#include "mcpud/hal/sensor.hpp"
#include "mcpud/hal/sim_board.hpp"

namespace mcpud::pins {

// The boards mcpud knows: the built-in simulation, a Raspberry Pi (pin N is
// GPIO<N> on the header), any Linux board (chip and line given), or no pins.
enum class BoardKind { Sim, RaspberryPi, Linux, None };

std::string_view board_kind_name(BoardKind kind);  // "sim", "raspberrypi", "linux", "none"
std::optional<BoardKind> parse_board_kind(std::string_view name);

// Where a sensor_input on a real board reads its value.
struct SensorSource {
  enum class Kind { None, Iio, Hwmon, Thermal, OneWire };
  Kind kind = Kind::None;
  std::string device;   // IIO device name, label or id; hwmon chip name; thermal zone type; 1-Wire id
  std::string channel;  // IIO channel ("temp", "voltage0"); hwmon input ("temp1")
};

// What becomes of an output when the client that drove it goes away.
enum class OnRelease { Safe, Hold };

// The limits a human sets on one digital_output or pwm_output, which no call
// can pass (docs/safety.md). A zero time or count is "no limit".
struct OutputLimits {
  OnRelease on_release = OnRelease::Hold;  // default: "safe" when the output has a safe value
  std::uint32_t lease_ms = 0;              // a client's write holds this long unless it writes again
  std::uint32_t max_on_ms = 0;             // longest time away from the safe value
  std::uint32_t min_off_ms = 0;            // shortest time at the safe value before leaving it again
  std::uint32_t max_writes_per_s = 0;
  std::optional<int> min_duty;  // pwm_output, 0-255: duties outside are refused (the safe duty is always allowed)
  std::optional<int> max_duty;
  std::vector<std::string> exclusive_with;  // never away from safe together with these (both ways)
  std::string required;                     // `requires`: may be away from safe only while this one is

  // Whether any limit applies: an output without any is written as before, at no extra cost.
  bool any() const {
    return on_release == OnRelease::Safe || lease_ms || max_on_ms || min_off_ms || max_writes_per_s || min_duty ||
           max_duty || !exclusive_with.empty() || !required.empty();
  }
};

// What one [[pins]] table says. Defaults of keys are the schema's, or, for keys
// whose default depends on the pin type or board, parse_board_config's; the
// hal specs keep the board's own defaults for keys not given.
struct PinConfig {
  std::string name;
  int pin{};  // the logical pin number clients use
  hal::PinType type{};
  std::string description;
  bool initial{};                           // digital_output
  std::optional<bool> safe_value;           // digital_output: driven on exit
  std::uint32_t frequency_hz{};             // pwm_output
  std::optional<double> safe_duty;          // pwm_output, 0-255: driven on exit
  OutputLimits limits;                      // digital_output and pwm_output
  std::optional<SamplingOptions> sampling;  // inputs
  hal::SimInputSpec sim_input;              // board "sim", digital_input
  hal::SimAnalogSpec sim_analog;            // board "sim", adc_input and sensor_input
  std::string sim_quantity;                 // board "sim", sensor_input: "temperature", ...
  // Boards "raspberrypi" and "linux" (hardware_config.cpp):
  hal::LineAddress line;        // digital pins: chip and line
  hal::OutputSpec gpio_output;  // digital_output
  hal::InputSpec gpio_input;    // digital_input
  hal::IioChannelSpec iio;      // adc_input
  SensorSource sensor;          // sensor_input
  std::string pwm_chip;         // pwm_output: "pwmchip0"
  unsigned pwm_channel{};
  bool pwm_inverted{};
};

// The top-level keys `board`, `pwm_sysfs_root`, `sysfs_root`, `procfs_root` and the [[pins]] tables.
struct BoardConfig {
  BoardKind kind{};
  std::string pwm_sysfs_root;
  std::string sysfs_root;   // where sensors are found: "/sys", or a fake tree in tests
  std::string procfs_root;  // board_health's load, memory, uptime: "/proc"
  std::vector<PinConfig> pins;
};

// Adds `board`, `pwm_sysfs_root`, `sysfs_root`, `procfs_root` and `pins` to the config schema's properties.
void add_board_schema(nlohmann::json& schema);
// Reads them from the validated document (defaults filled in). Errors name the
// key path: "pins[2].sim.from: no digital_output named 'x'".
std::expected<BoardConfig, std::string> parse_board_config(const nlohmann::json& document);

}  // namespace mcpud::pins
