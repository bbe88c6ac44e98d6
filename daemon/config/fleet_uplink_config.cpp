// SPDX-License-Identifier: MIT
// Schema and parsing of [uplink.fleet].
#include "config/fleet_uplink_config.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mcpud::config {

using nlohmann::json;

namespace {

std::expected<std::string, std::string> read_secret(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  if (!in) return std::unexpected(key + ": cannot read " + path + ": " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  auto secret = text.str();
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r')) secret.pop_back();
  return secret;
}

std::expected<void, std::string> parse_broker(const std::string& broker, FleetUplinkConfig& out) {
  const auto colon = broker.rfind(':');
  const auto bad = std::unexpected("uplink.fleet.broker: expected host:port, got '" + broker + "'");
  if (colon == std::string::npos || colon == 0 || colon + 1 == broker.size()) return bad;
  auto host = broker.substr(0, colon);
  if (host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  unsigned long port = 0;
  try {
    std::size_t used = 0;
    port = std::stoul(broker.substr(colon + 1), &used);
    if (used != broker.size() - colon - 1) return bad;
  } catch (const std::exception&) {
    return bad;
  }
  if (port == 0 || port > 65535) return bad;
  out.host = host;
  out.port = static_cast<std::uint16_t>(port);
  return {};
}

}  // namespace

bool valid_topic_segment(const std::string& segment) {
  return !segment.empty() && segment.find_first_of(std::string("/+#\0", 4)) == std::string::npos;
}

json fleet_uplink_schema() {
  return json::parse(R"({
    "type": "object", "additionalProperties": false, "default": {},
    "properties": {
      "broker": {"type": "string", "default": ""},
      "device": {"type": "string", "default": ""},
      "topic_prefix": {"type": "string", "minLength": 1, "default": "mcpud"},
      "mqtt_version": {"type": "string", "enum": ["5", "3.1.1"], "default": "5"},
      "username": {"type": "string", "default": ""},
      "password": {"type": "string", "default": ""},
      "password_file": {"type": "string", "default": ""},
      "tls": {"type": "boolean", "default": false},
      "ca_file": {"type": "string", "default": ""},
      "cert_file": {"type": "string", "default": ""},
      "key_file": {"type": "string", "default": ""},
      "insecure_skip_verify": {"type": "boolean", "default": false},
      "keepalive_s": {"type": "integer", "minimum": 5, "maximum": 65535, "default": 30},
      "retry_max_ms": {"type": "integer", "minimum": 100, "maximum": 3600000, "default": 30000},
      "max_in_flight": {"type": "integer", "minimum": 1, "maximum": 4096, "default": 64},
      "summary_interval_s": {"type": "integer", "minimum": 0, "maximum": 86400, "default": 0}
    }
  })");
}

std::expected<FleetUplinkConfig, std::string> parse_fleet_uplink(const json& fleet) {
  FleetUplinkConfig out;
  const auto broker = fleet.at("broker").get<std::string>();
  if (broker.empty()) return out;
  if (auto parsed = parse_broker(broker, out); !parsed) return std::unexpected(parsed.error());
  out.device = fleet.at("device").get<std::string>();
  if (!out.device.empty() && !valid_topic_segment(out.device))
    return std::unexpected("uplink.fleet.device: must not contain '/', '+' or '#', got '" + out.device + "'");
  out.topic_prefix = fleet.at("topic_prefix").get<std::string>();
  if (out.topic_prefix.find_first_of("+#") != std::string::npos || out.topic_prefix.front() == '/' ||
      out.topic_prefix.back() == '/')
    return std::unexpected(
        "uplink.fleet.topic_prefix: expected topic levels without '+', '#' or a leading or "
        "trailing '/', got '" +
        out.topic_prefix + "'");
  out.mqtt5 = fleet.at("mqtt_version").get<std::string>() == "5";
  out.username = fleet.at("username").get<std::string>();
  out.password = fleet.at("password").get<std::string>();
  if (const auto file = fleet.at("password_file").get<std::string>(); !file.empty()) {
    if (!out.password.empty())
      return std::unexpected("uplink.fleet.password_file: give either password or password_file, not both");
    auto secret = read_secret(file, "uplink.fleet.password_file");
    if (!secret) return std::unexpected(secret.error());
    out.password = *secret;
  }
  if (!out.password.empty() && out.username.empty())
    return std::unexpected("uplink.fleet.username: required with a password");
  out.tls = fleet.at("tls").get<bool>();
  out.ca_file = fleet.at("ca_file").get<std::string>();
  out.cert_file = fleet.at("cert_file").get<std::string>();
  out.key_file = fleet.at("key_file").get<std::string>();
  out.insecure_skip_verify = fleet.at("insecure_skip_verify").get<bool>();
  if (!out.tls && (!out.ca_file.empty() || !out.cert_file.empty() || out.insecure_skip_verify))
    return std::unexpected("uplink.fleet.tls: TLS options given but tls = false");
  if (out.cert_file.empty() != out.key_file.empty())
    return std::unexpected("uplink.fleet.key_file: cert_file and key_file go together");
  out.keepalive_s = fleet.at("keepalive_s").get<std::uint32_t>();
  out.retry_max_ms = fleet.at("retry_max_ms").get<std::uint32_t>();
  out.max_in_flight = fleet.at("max_in_flight").get<std::size_t>();
  out.summary_interval_s = fleet.at("summary_interval_s").get<std::uint32_t>();
  return out;
}

}  // namespace mcpud::config
