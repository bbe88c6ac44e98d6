// SPDX-License-Identifier: MIT
// The JSON Schema of mcpud.toml (after TOML is turned into JSON).
#include "config_schema.hpp"

namespace mcpud::config {

const char* const kConfigSchema = R"json({
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "device": {"type": "string", "minLength": 1, "maxLength": 64, "default": "mcpud"},
    "listen": {"type": "array", "items": {"type": "string", "minLength": 3}, "default": ["127.0.0.1:3000"]},
    "listen_tls": {"type": "array", "items": {"type": "string", "minLength": 3}, "default": []},
    "tls_cert": {"type": "string", "default": ""},
    "tls_key": {"type": "string", "default": ""},
    "tty": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": []},
    "log_level": {"type": "string", "enum": ["debug", "info", "warn", "error"], "default": "info"},
    "dbus": {"type": "string", "enum": ["system", "session", "none"], "default": "system"},
    "discovery": {
      "type": "object",
      "additionalProperties": false,
      "default": {},
      "properties": {
        "announce": {"type": "boolean", "default": true},
        "name": {"type": "string", "maxLength": 63, "default": ""}
      }
    },
    "limits": {
      "type": "object",
      "additionalProperties": false,
      "default": {},
      "properties": {
        "max_line_bytes": {"type": "integer", "minimum": 256, "maximum": 16777216, "default": 65536},
        "client_queue_bytes": {"type": "integer", "minimum": 4096, "maximum": 268435456, "default": 1048576},
        "max_clients": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 256},
        "max_clients_per_address": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 64},
        "idle_timeout_s": {"type": "integer", "minimum": 0, "maximum": 604800, "default": 600}
      }
    }
  }
})json";

}  // namespace mcpud::config
