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

struct ServicesUplinkConfig {
  std::string server;  // "host:port"; empty: the uplink is off
  std::string host;    // split from server
  std::uint16_t port = 0;
  bool tls = false;
  std::string ca_file;      // PEM CA bundle; empty: the system's CA store
  std::string server_name;  // name the certificate must carry; empty: host
  std::string token;        // from token or token_file (never logged)
  std::string voice_id;     // AUTH options: ##voiceid:, ##lang:, ##format:
  std::string lang;
  std::string format = "pcm";
  std::uint32_t ping_interval_s = 120;
  std::uint32_t retry_max_ms = 30000;
  std::size_t max_frame_bytes = 1024 * 1024;
  std::size_t queue_bytes = 4 * 1024 * 1024;
  std::string task_id = "mcp00001";  // TaskID of register/call/result messages
  bool user_tools = false;           // also offer user-only tools (see [mcp] user_only_tools)
  std::uint32_t max_calls_in_flight = 16;
  std::uint32_t ask_timeout_s = 30;
  std::uint32_t ask_quiet_ms = 2000;
  std::uint32_t register_delay_ms = 200;

  bool enabled() const { return !server.empty(); }
  bool operator==(const ServicesUplinkConfig&) const = default;
};

// The JSON Schema of [uplink.services].
nlohmann::json services_uplink_schema();
// Reads [uplink.services] (defaults filled in); reads token_file. Errors name
// the key path ("uplink.services.server: expected host:port, got 'x'").
std::expected<ServicesUplinkConfig, std::string> parse_services_uplink(const nlohmann::json& table);

}  // namespace mcpud::uplinks
