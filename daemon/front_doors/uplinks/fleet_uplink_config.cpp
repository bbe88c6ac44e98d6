// SPDX-License-Identifier: MIT
// Schema and parsing of [uplink.fleet].
#include "mcpud/uplinks/fleet_uplink_config.hpp"

#include "mcpud/uplinks/uplink_fields.hpp"

namespace mcpud::uplinks {

using nlohmann::json;

bool valid_topic_segment(const std::string& segment) {
  return !segment.empty() && segment.find_first_of(std::string("/+#\0", 4)) == std::string::npos;
}

namespace {

// The keys that need no file read, read whether fleet mode is on or not.
void read_settings(const json& fleet, FleetUplinkConfig& out) {
  out.device = fleet.at("device").get<std::string>();
  out.topic_prefix = fleet.at("topic_prefix").get<std::string>();
  out.mqtt5 = fleet.at("mqtt_version").get<std::string>() == "5";
  out.username = fleet.at("username").get<std::string>();
  out.tls = fleet.at("tls").get<bool>();
  out.ca_file = fleet.at("ca_file").get<std::string>();
  out.cert_file = fleet.at("cert_file").get<std::string>();
  out.key_file = fleet.at("key_file").get<std::string>();
  out.insecure_skip_verify = fleet.at("insecure_skip_verify").get<bool>();
  out.keepalive_s = fleet.at("keepalive_s").get<std::uint32_t>();
  out.retry_max_ms = fleet.at("retry_max_ms").get<std::uint32_t>();
  out.max_in_flight = fleet.at("max_in_flight").get<std::size_t>();
  out.summary_interval_s = fleet.at("summary_interval_s").get<std::uint32_t>();
}

}  // namespace

json fleet_uplink_schema() {
  return with_shared_keys(json::parse(R"({
    "type": "object", "additionalProperties": false, "default": {},
    "properties": {
      "broker": {"type": "string", "default": ""},
      "device": {"type": "string", "default": ""},
      "topic_prefix": {"type": "string", "minLength": 1, "default": "mcpud"},
      "mqtt_version": {"type": "string", "enum": ["5", "3.1.1"], "default": "5"},
      "keepalive_s": {"type": "integer", "minimum": 5, "maximum": 65535, "default": 30},
      "max_in_flight": {"type": "integer", "minimum": 1, "maximum": 4096, "default": 64},
      "summary_interval_s": {"type": "integer", "minimum": 0, "maximum": 86400, "default": 0}
    }
  })"),
                          {"username", "password", "password_file", "tls", "ca_file", "cert_file", "key_file",
                           "insecure_skip_verify", "retry_max_ms"});
}

std::expected<FleetUplinkConfig, std::string> parse_fleet_uplink(const json& fleet) {
  FleetUplinkConfig out;
  read_settings(fleet, out);
  const auto broker = fleet.at("broker").get<std::string>();
  if (broker.empty()) return out;  // off: nothing to check, no password file to read
  auto address = parse_host_port(broker, "uplink.fleet.broker", "192.168.1.10:1883");
  if (!address) return std::unexpected(address.error());
  out.host = std::move(address->host);
  out.port = address->port;
  if (!out.device.empty() && !valid_topic_segment(out.device))
    return std::unexpected("uplink.fleet.device: must not contain '/', '+' or '#', got '" + out.device + "'");
  if (out.topic_prefix.find_first_of("+#") != std::string::npos || out.topic_prefix.front() == '/' ||
      out.topic_prefix.back() == '/')
    return std::unexpected(
        "uplink.fleet.topic_prefix: expected topic levels without '+', '#' or a leading or "
        "trailing '/', got '" +
        out.topic_prefix + "'");
  auto password = read_secret(fleet, "password", "uplink.fleet");
  if (!password) return std::unexpected(password.error());
  out.password = std::move(*password);
  if (!out.password.empty() && out.username.empty())
    return std::unexpected("uplink.fleet.username: required with a password");
  if (!out.tls && (!out.ca_file.empty() || !out.cert_file.empty() || out.insecure_skip_verify))
    return std::unexpected("uplink.fleet.tls: TLS options given but tls = false");
  if (out.cert_file.empty() != out.key_file.empty())
    return std::unexpected("uplink.fleet.key_file: cert_file and key_file go together");
  return out;
}

}  // namespace mcpud::uplinks
