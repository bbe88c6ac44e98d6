// SPDX-License-Identifier: MIT
// The [[bridges]] tables of mcpud.toml: one MCP/U microcontroller each, on a
// serial port or over TCP; their schema and the checks a schema cannot express.
// Plain data and functions without state; any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::bridge {

// One MCP/U microcontroller whose tools mcpud re-exports as "<id>__<tool>".
// Defaults are the schema's, and parse_bridges's for reset_wait_ms.
struct BridgeConfig {
  std::string id;        // tool prefix, e.g. "uno"
  std::string port;      // serial device path; empty for TCP
  std::string tcp;       // "host:port"; empty for serial (for `discover`: where it was found)
  std::string discover;  // a pattern (fnmatch) of the _mcpu._tcp instance names on the LAN to dial
  std::uint32_t baud{};
  std::uint32_t reset_wait_ms{};    // after opening (DTR resets the board)
  std::uint32_t timeout_ms{};       // per call
  std::uint32_t retry_max_ms{};     // longest wait between reconnect attempts
  std::uint32_t replug_grace_ms{};  // how long a lost device's tools stay, answering DEVICE_DISCONNECTED
  std::uint32_t max_in_flight{};
  bool operator==(const BridgeConfig&) const = default;
};

// Adds `bridges` to the config schema's properties.
void add_bridges_schema(nlohmann::json& schema);
// Reads [[bridges]] from the validated document (defaults filled in), and writes
// back into it what a bridge really uses (reset_wait_ms, no baud over TCP) so
// that --check-config shows it. Errors name the key path.
std::expected<std::vector<BridgeConfig>, std::string> parse_bridges(nlohmann::json& document);

}  // namespace mcpud::bridge
