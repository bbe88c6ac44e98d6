// SPDX-License-Identifier: MIT
// Settings of the serial tool set: the [serial] table of mcpud.toml, overridden
// by the SERIAL_MCP_* environment variables.
// Plain data and functions without state; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::serial {

// Defaults are the schema's (kSerialConfigSchema), read in by parse_config;
// default_config() is an empty table's.
struct SerialConfig {
  bool enabled{};                      // register the serial tools at all
  std::uint32_t default_baud{};        // SERIAL_MCP_DEFAULT_BAUD
  std::uint32_t default_timeout_ms{};  // SERIAL_MCP_DEFAULT_TIMEOUT_MS
  std::string log_level;               // SERIAL_MCP_LOG_LEVEL; empty: the daemon's level
  // SERIAL_MCP_ALLOWED_PORTS; globs of the ports clients may open. Unset or
  // empty: none, unless any_port_when_unset.
  std::optional<std::vector<std::string>> allowed_ports;
  // Not a key: set for `mcpud --stdio`, a user's own server with that user's
  // rights, which keeps serial-mcp's default of any serial port while
  // allowed_ports is unset.
  bool any_port_when_unset{};
  std::vector<std::string> ports;    // extra paths or globs serial_list_ports shows (ptys, socat links)
  std::size_t buffer_bytes{};        // ring buffer per session
  std::size_t buffer_bytes_total{};  // every session's ring buffer together
  std::size_t max_sessions{};
  bool share_sessions{};  // false: a session is its opener's alone, and closes when its opener goes
  // A session a stateless request opened (MCP 2026-07-28 over HTTP, whose end
  // says nothing of its client) closes after this long unused instead.
  std::uint32_t stateless_idle_ms{};
  std::string newline;
  std::string sysfs_root;  // where ports are enumerated from
  std::string dev_root;
  bool hotplug{};  // watch udev for removed devices
};

// The [serial] table's JSON Schema (part of the config schema).
extern const char* const kSerialConfigSchema;

// From the validated [serial] table (defaults filled in).
SerialConfig parse_config(const nlohmann::json& table);
// An empty [serial] table's: every key at the schema's default.
SerialConfig default_config();

// What the schema cannot check: buffer_bytes within buffer_bytes_total. The
// error names the keys.
std::expected<void, std::string> check_config(const SerialConfig& config);

// Applies SERIAL_MCP_DEFAULT_BAUD, SERIAL_MCP_DEFAULT_TIMEOUT_MS,
// SERIAL_MCP_LOG_LEVEL and SERIAL_MCP_ALLOWED_PORTS (comma-separated globs) from
// `getenv`. The error names the variable and what is wrong with it.
using Getenv = std::function<const char*(const char*)>;
std::expected<void, std::string> apply_environment(SerialConfig& config, const Getenv& getenv);

}  // namespace mcpud::serial
