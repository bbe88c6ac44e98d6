// SPDX-License-Identifier: MIT
// The configuration of the voice-assistant uplink, [uplink.assistant]: the
// device side of the voice-assistant MCP over WebSocket (dialing out to `url`)
// or over MQTT (publishing to `publish_topic` on `broker`).
// Plain data and functions without state; any thread.
#pragma once

#include <cstdint>
#include <expected>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/uplinks/uplink_fields.hpp"

namespace mcpud::uplinks {

// Defaults are the schema's (assistant_uplink_schema), read in by parse_assistant_uplink.
struct AssistantUplinkConfig {
  std::string transport;   // "websocket" or "mqtt"
  std::string url;         // ws:// or wss://; "" leaves the uplink off
  std::string token;       // bearer token (from `token` or the file `token_file`); never logged
  int protocol_version{};  // the Protocol-Version header and the hello's version
  std::string device_id;   // Device-Id; "" = MAC of the first non-loopback interface
  std::string client_id;   // Client-Id; "" = a UUID derived from /etc/machine-id and the Device-Id
  std::string ca_file;     // PEM CAs to verify a wss:// server with; "" = the system store
  bool insecure_skip_verify{};
  nlohmann::json audio_params;       // sent in the hello as is
  std::uint32_t hello_timeout_ms{};  // wait for the server's hello
  std::uint32_t ping_interval_ms{};  // WebSocket ping when idle; the server drops a link after 120 s
  std::uint32_t retry_max_ms{};      // reconnect backoff ceiling
  std::size_t max_message_bytes{};
  std::size_t queue_bytes{};      // messages waiting to be sent; overflow drops the link
  bool push_pin_events{};         // send notifications/pin_event unasked
  std::string capabilities_file;  // where the server's initialize capabilities are written (0600)

  // transport = "mqtt"
  std::string broker;           // host:port; "" leaves an mqtt uplink off
  io::HostPort broker_address;  // split from broker
  std::string publish_topic;    // where the device publishes
  std::string subscribe_topic;  // where the server replies; "" = devices/p2p/<Device-Id with underscores>
  std::string username;
  std::string password;  // from `password` or `password_file`; never logged
  std::uint32_t keepalive_s{};
  int qos{};
  bool tls{};                // verified with ca_file / insecure_skip_verify as for wss://
  std::string mqtt_version;  // "3.1.1" or "5"

  bool mqtt() const { return transport == "mqtt"; }
  bool enabled() const { return mqtt() ? !broker.empty() : !url.empty(); }
  bool operator==(const AssistantUplinkConfig&) const = default;
};

// The JSON Schema of [uplink.assistant].
nlohmann::json assistant_uplink_schema();
// Reads [uplink.assistant] (defaults filled in); reads token_file and password_file. Errors name
// the key, e.g. "uplink.assistant.url: expected ws:// or wss://, got 'http://x'".
std::expected<AssistantUplinkConfig, std::string> parse_assistant_uplink(const nlohmann::json& table);

}  // namespace mcpud::uplinks
