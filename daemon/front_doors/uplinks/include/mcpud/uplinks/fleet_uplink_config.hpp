// SPDX-License-Identifier: MIT
// [uplink.fleet]: serve JSON-RPC through an MQTT broker and announce the device
// there (retained info and status, events). Off until `broker` is set.
// Plain data and functions without state; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>

#include <nlohmann/json.hpp>

namespace mcpud::uplinks {

// Defaults are the schema's (fleet_uplink_schema), read in by parse_fleet_uplink.
struct FleetUplinkConfig {
  std::string host;  // split from `broker`; empty: fleet mode off
  std::uint16_t port{};
  std::string device;  // the device id in topics; empty: the config's device name
  std::string topic_prefix;
  bool mqtt5{};  // false: MQTT 3.1.1
  std::string username;
  std::string password;  // from `password` or the file `password_file` names
  bool tls{};
  std::string ca_file;  // empty: the system CA store
  std::string cert_file;
  std::string key_file;
  bool insecure_skip_verify{};
  std::uint32_t keepalive_s{};
  std::uint32_t retry_max_ms{};
  std::size_t max_in_flight{};         // requests being served at once; more get BUSY
  std::uint32_t summary_interval_s{};  // sampling summaries on events/<pin> every N s; 0: off

  bool enabled() const { return !host.empty(); }
  bool operator==(const FleetUplinkConfig&) const = default;
};

// The schema of [uplink.fleet].
nlohmann::json fleet_uplink_schema();
// Reads [uplink.fleet] (defaults filled in); errors name the key path.
std::expected<FleetUplinkConfig, std::string> parse_fleet_uplink(const nlohmann::json& fleet);

// Whether `segment` may be one MQTT topic level: not empty, no '/', '+', '#' or NUL.
bool valid_topic_segment(const std::string& segment);

}  // namespace mcpud::uplinks
