// SPDX-License-Identifier: MIT
// Schema and parsing of [uplink.fleet].
#include "mcpud/uplinks/fleet_uplink_config.hpp"

#include "mcpud/uplinks/uplink_fields.hpp"

namespace mcpud::uplinks {

using nlohmann::json;

bool valid_topic_segment(const std::string& segment) {
  return !segment.empty() && segment.find_first_of(std::string("/+#\0", 4)) == std::string::npos;
}

// The keys that need no file read, read by name whether fleet mode is on or not.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FleetUplinkConfig, device, topic_prefix, username, tls, ca_file, cert_file, key_file,
                                   insecure_skip_verify, keepalive_s, retry_max_ms, max_in_flight, summary_interval_s)

json fleet_uplink_schema() {
  return uplink_table_schema(R"({
    "broker": {"type": "string", "default": ""},
    "device": {"type": "string", "default": ""},
    "topic_prefix": {"type": "string", "minLength": 1, "default": "mcpud"},
    "mqtt_version": {"type": "string", "enum": ["5", "3.1.1"], "default": "5"},
    "keepalive_s": {"type": "integer", "minimum": 5, "maximum": 65535, "default": 30},
    "max_in_flight": {"type": "integer", "minimum": 1, "maximum": 4096, "default": 64},
    "summary_interval_s": {"type": "integer", "minimum": 0, "maximum": 86400, "default": 0}
  })",
                             {"username", "password", "password_file", "tls", "ca_file", "cert_file", "key_file",
                              "insecure_skip_verify", "retry_max_ms"});
}

std::expected<FleetUplinkConfig, std::string> parse_fleet_uplink(const json& fleet) {
  auto out = fleet.get<FleetUplinkConfig>();
  out.mqtt5 = fleet.at("mqtt_version").get<std::string>() == "5";
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
