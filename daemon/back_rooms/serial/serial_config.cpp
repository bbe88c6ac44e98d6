// SPDX-License-Identifier: MIT
// The [serial] table and the SERIAL_MCP_* environment variables.
#include "mcpud/serial/serial_config.hpp"

#include <charconv>

#include "mcpud/core/log.hpp"
#include "mcpud/core/schema.hpp"

namespace mcpud::serial {

const char* const kSerialConfigSchema = R"json({
  "type": "object",
  "additionalProperties": false,
  "default": {},
  "properties": {
    "enabled": {"type": "boolean", "default": true},
    "default_baud": {"type": "integer", "minimum": 50, "maximum": 16000000, "default": 115200},
    "default_timeout_ms": {"type": "integer", "minimum": 0, "maximum": 300000, "default": 100},
    "log_level": {"type": "string", "enum": ["", "debug", "info", "warn", "error"], "default": ""},
    "allowed_ports": {"type": "array", "items": {"type": "string", "minLength": 1}},
    "ports": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": []},
    "buffer_bytes": {"type": "integer", "minimum": 256, "maximum": 67108864, "default": 1048576},
    "buffer_bytes_total": {"type": "integer", "minimum": 256, "maximum": 1073741824, "default": 16777216},
    "max_sessions": {"type": "integer", "minimum": 1, "maximum": 256, "default": 16},
    "share_sessions": {"type": "boolean", "default": false},
    "stateless_idle_ms": {"type": "integer", "minimum": 1000, "maximum": 86400000, "default": 600000},
    "newline": {"type": "string", "enum": ["\n", "\r\n", "\r"], "default": "\n"},
    "sysfs_root": {"type": "string", "minLength": 1, "default": "/sys"},
    "dev_root": {"type": "string", "minLength": 1, "default": "/dev"},
    "hotplug": {"type": "boolean", "default": true}
  }
})json";

namespace {

std::expected<std::uint32_t, std::string> parse_number(const char* name, std::string_view text, std::uint32_t min,
                                                       std::uint32_t max) {
  std::uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < min || value > max) {
    return std::unexpected(std::string(name) + "='" + std::string(text) + "': expected a whole number from " +
                           std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

std::vector<std::string> split_globs(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    auto item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace

// Every key but allowed_ports, read by name.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SerialConfig, enabled, default_baud, default_timeout_ms, log_level, ports,
                                   buffer_bytes, buffer_bytes_total, max_sessions, share_sessions, stateless_idle_ms,
                                   newline, sysfs_root, dev_root, hotplug)

SerialConfig parse_config(const nlohmann::json& t) {
  auto c = t.get<SerialConfig>();
  // Absent stays unset: `mcpud --stdio` then keeps the open default.
  if (t.contains("allowed_ports")) c.allowed_ports = t["allowed_ports"].get<std::vector<std::string>>();
  return c;
}

SerialConfig default_config() { return parse_config(schema::defaults_of(nlohmann::json::parse(kSerialConfigSchema))); }

std::expected<void, std::string> check_config(const SerialConfig& config) {
  if (config.buffer_bytes <= config.buffer_bytes_total) return {};
  return std::unexpected("serial.buffer_bytes: " + std::to_string(config.buffer_bytes) +
                         " is more than serial.buffer_bytes_total (" + std::to_string(config.buffer_bytes_total) +
                         "): no session could open with it");
}

std::expected<void, std::string> apply_environment(SerialConfig& config, const Getenv& getenv) {
  const auto number = [&](const char* name, std::uint32_t min, std::uint32_t max,
                          std::uint32_t& field) -> std::expected<void, std::string> {
    const char* v = getenv(name);
    if (!v || !*v) return {};
    auto parsed = parse_number(name, v, min, max);
    if (!parsed) return std::unexpected(parsed.error());
    field = *parsed;
    return {};
  };
  if (auto baud = number("SERIAL_MCP_DEFAULT_BAUD", 50, 16000000, config.default_baud); !baud) return baud;
  if (auto timeout = number("SERIAL_MCP_DEFAULT_TIMEOUT_MS", 0, 300000, config.default_timeout_ms); !timeout) {
    return timeout;
  }
  if (const char* v = getenv("SERIAL_MCP_LOG_LEVEL"); v && *v) {
    std::string level(v);
    if (level == "trace") level = "debug";  // the seed's most verbose level
    if (!mcpud::log::parse_level(level)) {
      return std::unexpected("SERIAL_MCP_LOG_LEVEL='" + std::string(v) +
                             "': expected error, warn, info, debug or trace");
    }
    config.log_level = level == "warning" ? "warn" : level;
  }
  if (const char* v = getenv("SERIAL_MCP_ALLOWED_PORTS"); v && *v) config.allowed_ports = split_globs(v);
  return {};
}

}  // namespace mcpud::serial
