// SPDX-License-Identifier: MIT
// The configuration of the `##START` services uplink, [uplink.services]: where
// to dial, how to authenticate, and the link's limits.
// Plain data and functions without state; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>

#include <nlohmann/json.hpp>

namespace mcpud::uplinks {

// Defaults are the schema's (services_uplink_schema), read in by parse_services_uplink.
struct ServicesUplinkConfig {
  std::string server;  // "host:port"; empty: the uplink is off
  std::string host;    // split from server
  std::uint16_t port{};
  bool tls{};
  std::string ca_file;      // PEM CA bundle; empty: the system's CA store
  std::string server_name;  // name the certificate must carry; empty: host
  std::string token;        // from token or token_file (never logged)
  std::string voice_id;     // AUTH options: ##voiceid:, ##lang:, ##format:
  std::string lang;
  std::string format;
  std::uint32_t ping_interval_s{};
  std::uint32_t retry_max_ms{};
  std::size_t max_frame_bytes{};
  std::size_t queue_bytes{};
  std::string task_id;  // TaskID of register/call/result messages
  bool user_tools{};    // also offer user-only tools (see [mcp] user_only_tools)
  std::uint32_t max_calls_in_flight{};
  std::uint32_t ask_timeout_s{};
  std::uint32_t ask_quiet_ms{};
  std::uint32_t register_delay_ms{};

  bool enabled() const { return !server.empty(); }
  bool operator==(const ServicesUplinkConfig&) const = default;
};

// The JSON Schema of [uplink.services].
nlohmann::json services_uplink_schema();
// Reads [uplink.services] (defaults filled in); reads token_file. Errors name
// the key path ("uplink.services.server: expected host:port, got 'x'").
std::expected<ServicesUplinkConfig, std::string> parse_services_uplink(const nlohmann::json& table);

}  // namespace mcpud::uplinks
