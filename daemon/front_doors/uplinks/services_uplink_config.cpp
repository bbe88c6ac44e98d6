// SPDX-License-Identifier: MIT
// Schema and parsing of [uplink.services].
#include "mcpud/uplinks/services_uplink_config.hpp"

#include "mcpud/uplinks/uplink_fields.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;

constexpr const char* kWhere = "uplink.services.";

// The keys that need no check, read whether the uplink is on or not.
void read_settings(const json& t, ServicesUplinkConfig& out) {
  out.server = t.at("server").get<std::string>();
  out.tls = t.at("tls").get<bool>();
  out.ca_file = t.at("ca_file").get<std::string>();
  out.server_name = t.at("server_name").get<std::string>();
  out.voice_id = t.at("voice_id").get<std::string>();
  out.lang = t.at("lang").get<std::string>();
  out.format = t.at("format").get<std::string>();
  out.ping_interval_s = t.at("ping_interval_s").get<std::uint32_t>();
  out.retry_max_ms = t.at("retry_max_ms").get<std::uint32_t>();
  out.max_frame_bytes = t.at("max_frame_bytes").get<std::size_t>();
  out.queue_bytes = t.at("queue_bytes").get<std::size_t>();
  out.task_id = t.at("task_id").get<std::string>();
  out.user_tools = t.at("user_tools").get<bool>();
  out.max_calls_in_flight = t.at("max_calls_in_flight").get<std::uint32_t>();
  out.ask_timeout_s = t.at("ask_timeout_s").get<std::uint32_t>();
  out.ask_quiet_ms = t.at("ask_quiet_ms").get<std::uint32_t>();
  out.register_delay_ms = t.at("register_delay_ms").get<std::uint32_t>();
}

}  // namespace

json services_uplink_schema() {
  return with_shared_keys(json::parse(R"({
    "type": "object", "additionalProperties": false, "default": {},
    "properties": {
      "server": {"type": "string", "default": ""},
      "server_name": {"type": "string", "default": ""},
      "voice_id": {"type": "string", "default": ""},
      "lang": {"type": "string", "default": ""},
      "format": {"type": "string", "default": "pcm"},
      "ping_interval_s": {"type": "integer", "minimum": 5, "maximum": 290, "default": 120},
      "max_frame_bytes": {"type": "integer", "minimum": 1024, "maximum": 67108864, "default": 1048576},
      "queue_bytes": {"type": "integer", "minimum": 65536, "maximum": 268435456, "default": 4194304},
      "task_id": {"type": "string", "pattern": "^[!-~]{8}$", "default": "mcp00001"},
      "user_tools": {"type": "boolean", "default": false},
      "max_calls_in_flight": {"type": "integer", "minimum": 1, "maximum": 1024, "default": 16},
      "ask_timeout_s": {"type": "integer", "minimum": 1, "maximum": 600, "default": 30},
      "ask_quiet_ms": {"type": "integer", "minimum": 50, "maximum": 60000, "default": 2000},
      "register_delay_ms": {"type": "integer", "minimum": 0, "maximum": 10000, "default": 200}
    }
  })"),
                          {"tls", "ca_file", "token", "token_file", "retry_max_ms"});
}

std::expected<ServicesUplinkConfig, std::string> parse_services_uplink(const json& t) {
  ServicesUplinkConfig out;
  read_settings(t, out);
  if (out.server.empty()) return out;  // off: nothing to check, no token to read
  auto address = parse_host_port(out.server, std::string(kWhere) + "server", "ai.example.com:8085");
  if (!address) return std::unexpected(address.error());
  out.host = std::move(address->host);
  out.port = address->port;
  auto token = read_secret(t, "token", "uplink.services");
  if (!token) return std::unexpected(token.error());
  out.token = std::move(*token);
  if (out.token.empty()) {
    return std::unexpected(std::string(kWhere) + "token: missing; give token or token_file (AUTH needs one)");
  }
  if (out.token.find("##") != std::string::npos) {
    return std::unexpected(std::string(kWhere) + "token: must not contain \"##\" (it separates the AUTH options)");
  }
  for (const auto* key : {"voice_id", "lang", "format"}) {
    if (t.at(key).get<std::string>().find('#') != std::string::npos) {
      return std::unexpected(std::string(kWhere) + key + ": must not contain '#'");
    }
  }
  if (out.task_id == "00000000")
    return std::unexpected(std::string(kWhere) + "task_id: 00000000 is kept for system messages");
  return out;
}

}  // namespace mcpud::uplinks
