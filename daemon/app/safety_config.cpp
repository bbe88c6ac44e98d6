// SPDX-License-Identifier: MIT
// Schema and parsing of [safety].
#include "safety_config.hpp"

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace mcpud::config {

using nlohmann::json;

void add_safety_schema(json& schema) {
  schema["properties"]["safety"] = json::parse(R"({
    "type": "object", "additionalProperties": false, "default": {},
    "properties": {
      "confirm_tools": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": []},
      "max_pending_approvals": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 16},
      "approval_timeout_ms": {"type": "integer", "minimum": 100, "maximum": 86400000, "default": 60000},
      "estop_pin": {"type": "string", "default": ""},
      "estop_active": {"type": "string", "enum": ["low", "high"], "default": "low"},
      "approve_pin": {"type": "string", "default": ""},
      "state_dir": {"type": "string", "minLength": 1},
      "audit_records": {"type": "integer", "minimum": 1, "maximum": 1000000, "default": 1000}
    }
  })");
}

std::expected<SafetyConfig, std::string> parse_safety_section(const json& document) {
  const auto& safety = document.at("safety");
  SafetyConfig out;
  out.confirm_tools = safety.at("confirm_tools").get<std::vector<std::string>>();
  out.max_pending_approvals = safety.at("max_pending_approvals").get<std::size_t>();
  out.approval_timeout_ms = safety.at("approval_timeout_ms").get<std::uint32_t>();
  out.estop_pin = safety.at("estop_pin").get<std::string>();
  out.estop_active = safety.at("estop_active").get<std::string>();
  out.approve_pin = safety.at("approve_pin").get<std::string>();
  // Not a schema default: systemd's StateDirectory= says where, when it runs mcpud.
  if (safety.contains("state_dir")) {
    out.state_dir = safety["state_dir"].get<std::string>();
  } else if (const char* given = std::getenv("STATE_DIRECTORY"); given != nullptr && *given == '/') {
    const std::string_view first(given, std::strcspn(given, ":"));  // the first of several
    out.state_dir = std::string(first);
  } else {
    out.state_dir = kDefaultStateDir;
  }
  if (out.state_dir.front() != '/') {
    return std::unexpected("safety.state_dir: expected an absolute path, got '" + out.state_dir + "'");
  }
  out.audit_records = safety.at("audit_records").get<std::size_t>();
  return out;
}

}  // namespace mcpud::config
