// SPDX-License-Identifier: MIT
// The daemon's configuration: parsed from TOML, checked against the config
// schema with the same validator as tool arguments, then cross-checked.
// Plain data and functions without state; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_config.hpp"
#include "mcpud/bridge/bridge_config.hpp"
#include "mcpud/buses/bus_config.hpp"
#include "mcpud/pins/pin_config.hpp"
#include "mcpud/serial/serial_config.hpp"
#include "mcpud/uplinks/uplink_config.hpp"
#include "safety_config.hpp"

namespace mcpud::config {

// The structs below hold what the file says; they state no defaults of their
// own. Every default is written once, in the schema (config_schema.cpp and each
// section's part of it), and reaches these fields through parse(); a field is
// value-initialized until then. defaults() is the configuration of an empty file.

struct TtyConfig {
  std::string path;
  std::uint32_t baud{};
};

struct Limits {
  std::size_t max_line_bytes{};
  std::size_t client_queue_bytes{};
  std::size_t max_clients{};
  std::size_t max_clients_per_address{};  // TCP clients
  std::uint32_t idle_timeout_s{};         // TCP clients silent this long are closed; 0: never
};

// [discovery]: DNS-SD announcement of the listeners beyond loopback.
struct Discovery {
  bool announce{};
  std::string name;  // the instance name; "" is the device's name
};

struct Config {
  std::string device;
  std::vector<std::string> listen;      // "host:port", "[v6]:port"
  std::vector<std::string> listen_tls;  // the same, MCP/U over TLS with `tls`
  io::TlsFiles tls;                     // tls_cert and tls_key, for listen_tls
  std::vector<TtyConfig> ttys;
  std::string log_level;
  std::string dbus;  // the bus io.mcpud.Daemon1 is served on: system, session, none
  Discovery discovery;
  Limits limits;
  pins::BoardConfig board;      // board, pwm_sysfs_root and [[pins]]
  McpSections mcp;              // [mcp], [unix_socket], [http]
  serial::SerialConfig serial;  // [serial]; SERIAL_MCP_* variables are applied by the daemon
  buses::I2cConfig i2c;         // [i2c]
  buses::SpiConfig spi;         // [spi]
  std::vector<bridge::BridgeConfig> bridges;
  uplinks::UplinkConfig uplink;  // [uplink.*]: services, assistant, fleet
  SafetyConfig safety;           // [safety]: approval, emergency stop, audit
  nlohmann::json resolved;       // the validated document with defaults, for --check-config
};

// Parses TOML text; `source` names it in messages. Errors name the key path
// ("pins[2].type: must be one of ...") or the TOML line and column.
std::expected<Config, std::string> parse(std::string_view toml_text, std::string_view source);
// The JSON Schema of the whole file, every section's: what parse() checks, and
// what mcpud.toml(5) is made from (config_manual.hpp).
const nlohmann::json& schema();
std::expected<Config, std::string> load_file(const std::string& path);
// The built-in simulated board (config/examples/sim.toml, compiled in).
Config builtin();
// The configuration of an empty file: every key at the schema's default.
Config defaults();

// Whether a board "sim" uses its simulated buses: it lists an I2C bus or an
// SPI device, or has a 1-Wire thermometer. Only then are they made (a sysfs
// tree in the temporary directory, the chips), and onewire_list offered.
bool uses_simulated_buses(const Config& config);

// "PATH" or "PATH:BAUD" as given to --tty or in `tty`; 115200 baud without ":BAUD".
std::expected<TtyConfig, std::string> parse_tty(std::string_view spec);

}  // namespace mcpud::config
