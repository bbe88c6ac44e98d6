// SPDX-License-Identifier: MIT
// Schema and parsing of [uplink.assistant].
#include "mcpud/uplinks/assistant_uplink_config.hpp"

#include "mcpud/uplinks/uplink_fields.hpp"
#include "ws_url.hpp"

namespace mcpud::uplinks {

// The keys that need no check, read by name (token and password come from read_secret).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AssistantUplinkConfig, transport, url, protocol_version, device_id, client_id,
                                   ca_file, insecure_skip_verify, audio_params, hello_timeout_ms, ping_interval_ms,
                                   retry_max_ms, max_message_bytes, queue_bytes, push_pin_events, capabilities_file,
                                   broker, publish_topic, subscribe_topic, username, keepalive_s, qos, tls,
                                   mqtt_version)

namespace {

using nlohmann::json;

constexpr const char* kWhere = "uplink.assistant";

// The firmware's own audio parameters: servers expect the member to be there.
constexpr const char* kDefaultAudioParams =
    R"({"format": "opus", "sample_rate": 16000, "channels": 1, "frame_duration": 60})";

// The MQTT settings' secret and checks: a broker needs a topic to publish to.
std::expected<void, std::string> parse_mqtt(const json& table, AssistantUplinkConfig& out) {
  const std::string where = kWhere;
  auto password = read_secret(table, "password", kWhere);
  if (!password) return std::unexpected(password.error());
  out.password = std::move(*password);
  if (!out.broker.empty()) {
    auto address = parse_host_port(out.broker, where + ".broker", "192.168.1.10:1883");
    if (!address) return std::unexpected(address.error());
    out.broker_address = std::move(*address);
  }
  if (out.mqtt() && out.enabled() && out.publish_topic.empty()) {
    return std::unexpected(where + ".publish_topic: required with transport = \"mqtt\"");
  }
  return {};
}

}  // namespace

json assistant_uplink_schema() {
  auto schema = uplink_table_schema(
      R"({
    "transport": {"type": "string", "enum": ["websocket", "mqtt"], "default": "websocket"},
    "url": {"type": "string", "default": ""},
    "protocol_version": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1},
    "device_id": {"type": "string", "maxLength": 64, "default": ""},
    "client_id": {"type": "string", "maxLength": 64, "default": ""},
    "audio_params": {"type": "object"},
    "hello_timeout_ms": {"type": "integer", "minimum": 100, "maximum": 600000, "default": 10000},
    "ping_interval_ms": {"type": "integer", "minimum": 100, "maximum": 110000, "default": 30000},
    "retry_max_ms": {"type": "integer", "minimum": 10, "maximum": 3600000, "default": 30000},
    "max_message_bytes": {"type": "integer", "minimum": 1024, "maximum": 67108864, "default": 1048576},
    "queue_bytes": {"type": "integer", "minimum": 4096, "maximum": 268435456, "default": 1048576},
    "push_pin_events": {"type": "boolean", "default": true},
    "capabilities_file": {"type": "string", "default": ""},
    "broker": {"type": "string", "default": ""},
    "publish_topic": {"type": "string", "default": ""},
    "subscribe_topic": {"type": "string", "default": ""},
    "keepalive_s": {"type": "integer", "minimum": 5, "maximum": 65535, "default": 240},
    "qos": {"type": "integer", "minimum": 0, "maximum": 2, "default": 1},
    "mqtt_version": {"type": "string", "enum": ["3.1.1", "5"], "default": "3.1.1"}
  })",
      {"token", "token_file", "ca_file", "insecure_skip_verify", "username", "password", "password_file", "tls"});
  schema["properties"]["audio_params"]["default"] = json::parse(kDefaultAudioParams);
  return schema;
}

std::expected<AssistantUplinkConfig, std::string> parse_assistant_uplink(const json& table) {
  const std::string where = kWhere;
  auto out = table.get<AssistantUplinkConfig>();
  if (!out.url.empty()) {
    if (auto target = parse_ws_url(out.url); !target) return std::unexpected(where + ".url: " + target.error());
  }
  auto token = read_secret(table, "token", kWhere);
  if (!token) return std::unexpected(token.error());
  out.token = std::move(*token);
  if (!out.capabilities_file.empty() && out.capabilities_file.front() != '/') {
    return std::unexpected(where + ".capabilities_file: expected an absolute path, got '" + out.capabilities_file +
                           "'");
  }
  if (auto mqtt = parse_mqtt(table, out); !mqtt) return std::unexpected(mqtt.error());
  return out;
}

}  // namespace mcpud::uplinks
