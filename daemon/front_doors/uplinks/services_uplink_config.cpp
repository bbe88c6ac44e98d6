// SPDX-License-Identifier: MIT
// Schema and parsing of [uplink.services].
#include "mcpud/uplinks/services_uplink_config.hpp"

#include "mcpud/uplinks/uplink_fields.hpp"

namespace mcpud::uplinks {

// The keys that need no check, read by name whether the uplink is on or not.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ServicesUplinkConfig, server, tls, ca_file, server_name, voice_id, lang, format,
                                   ping_interval_s, retry_max_ms, max_frame_bytes, queue_bytes, task_id, user_tools,
                                   max_calls_in_flight, ask_timeout_s, ask_quiet_ms, register_delay_ms)

namespace {

using nlohmann::json;

// "uplink.services.<text>": a message about one of the table's keys. Appended,
// not `std::string(prefix) + text`, on which g++ 12 warns falsely (-Warray-bounds).
std::string where(std::string_view text) {
  std::string out = "uplink.services.";
  out += text;
  return out;
}

}  // namespace

json services_uplink_schema() {
  return uplink_table_schema(R"({
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
  })",
                             {"tls", "ca_file", "token", "token_file", "retry_max_ms"});
}

std::expected<ServicesUplinkConfig, std::string> parse_services_uplink(const json& t) {
  auto out = t.get<ServicesUplinkConfig>();
  if (out.server.empty()) return out;  // off: nothing to check, no token to read
  auto address = parse_host_port(out.server, where("server"), "ai.example.com:8085");
  if (!address) return std::unexpected(address.error());
  out.host = std::move(address->host);
  out.port = address->port;
  auto token = read_secret(t, "token", "uplink.services");
  if (!token) return std::unexpected(token.error());
  out.token = std::move(*token);
  if (out.token.empty()) {
    return std::unexpected(where("token: missing; give token or token_file (AUTH needs one)"));
  }
  if (out.token.find("##") != std::string::npos) {
    return std::unexpected(where("token: must not contain \"##\" (it separates the AUTH options)"));
  }
  for (const auto* key : {"voice_id", "lang", "format"}) {
    if (t.at(key).get<std::string>().find('#') != std::string::npos) {
      return std::unexpected(where(key) + ": must not contain '#'");
    }
  }
  if (out.task_id == "00000000") return std::unexpected(where("task_id: 00000000 is kept for system messages"));
  return out;
}

}  // namespace mcpud::uplinks
