// SPDX-License-Identifier: MIT
// The JSON Schema of mcpud.toml (after TOML is turned into JSON).
#include "config/config_schema.hpp"

namespace mcpud::config {

const char* const kConfigSchema = R"json({
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "device": {"type": "string", "minLength": 1, "maxLength": 64, "default": "mcpud"},
    "board": {"type": "string", "enum": ["sim", "raspberrypi", "linux", "none"], "default": "sim"},
    "pwm_sysfs_root": {"type": "string", "minLength": 1, "default": "/sys/class/pwm"},
    "listen": {"type": "array", "items": {"type": "string", "minLength": 3}, "default": ["127.0.0.1:3000"]},
    "tty": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": []},
    "log_level": {"type": "string", "enum": ["debug", "info", "warn", "error"], "default": "info"},
    "dbus": {"type": "string", "enum": ["system", "session", "none"], "default": "system"},
    "limits": {
      "type": "object",
      "additionalProperties": false,
      "default": {},
      "properties": {
        "max_line_bytes": {"type": "integer", "minimum": 256, "maximum": 16777216, "default": 65536},
        "client_queue_bytes": {"type": "integer", "minimum": 4096, "maximum": 268435456, "default": 1048576},
        "max_clients": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 256}
      }
    },
    "bridges": {
      "type": "array",
      "default": [],
      "maxItems": 64,
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id"],
        "properties": {
          "id": {"type": "string", "minLength": 1, "maxLength": 32, "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"},
          "port": {"type": "string", "minLength": 1},
          "tcp": {"type": "string", "minLength": 3},
          "baud": {"type": "integer", "minimum": 1, "default": 115200},
          "reset_wait_ms": {"type": "integer", "minimum": 0, "maximum": 60000},
          "timeout_ms": {"type": "integer", "minimum": 10, "maximum": 600000, "default": 5000},
          "retry_max_ms": {"type": "integer", "minimum": 10, "maximum": 3600000, "default": 5000},
          "max_in_flight": {"type": "integer", "minimum": 1, "maximum": 1024, "default": 16}
        }
      }
    },
    "pins": {
      "type": "array",
      "default": [],
      "maxItems": 512,
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "pin", "type"],
        "properties": {
          "name": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z_][A-Za-z0-9_.-]*$"},
          "pin": {"type": "integer", "minimum": 0, "maximum": 65535},
          "type": {"type": "string", "enum": ["digital_output", "digital_input", "pwm_output", "adc_input"]},
          "description": {"type": "string", "default": ""},
          "initial": {"type": "boolean"},
          "safe_value": {"type": "boolean"},
          "safe_duty": {"type": "integer", "minimum": 0, "maximum": 255},
          "pwm": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "frequency_hz": {"type": "integer", "minimum": 1, "maximum": 100000000, "default": 1000},
              "chip": {"type": "string", "minLength": 1},
              "channel": {"type": "integer", "minimum": 0, "maximum": 1023},
              "polarity": {"type": "string", "enum": ["normal", "inversed"]}
            }
          },
          "chip": {"type": "string", "minLength": 1},
          "line": {"type": ["integer", "string"], "minimum": 0, "maximum": 65535, "minLength": 1},
          "active_low": {"type": "boolean"},
          "drive": {"type": "string", "enum": ["push-pull", "open-drain", "open-source"]},
          "bias": {"type": "string", "enum": ["as-is", "disabled", "pull-up", "pull-down"]},
          "events": {"type": "string", "enum": ["none", "rising", "falling", "both"]},
          "debounce_ms": {"type": "integer", "minimum": 0, "maximum": 1000},
          "iio": {
            "type": "object",
            "additionalProperties": false,
            "required": ["device", "channel"],
            "properties": {
              "device": {"type": "string", "minLength": 1},
              "channel": {"type": "string", "minLength": 1},
              "uri": {"type": "string", "minLength": 1}
            }
          },
          "sampling": {
            "type": "object",
            "additionalProperties": false,
            "required": ["interval_ms"],
            "properties": {
              "interval_ms": {"type": "integer", "minimum": 1, "maximum": 86400000},
              "buffer_size": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 0},
              "summary": {"type": "boolean", "default": true},
              "thresholds": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
              "hysteresis": {"type": "number", "minimum": 0, "default": 0},
              "edges": {"type": "string", "enum": ["none", "rising", "falling", "both"], "default": "none"},
              "event_capacity": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 64}
            }
          },
          "sim": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "mode": {"type": "string", "enum": ["constant", "square", "loopback"]},
              "level": {"type": "boolean"},
              "from": {"type": "string"},
              "waveform": {"type": "string", "enum": ["constant", "sine", "triangle", "noise"]},
              "min": {"type": "number"},
              "max": {"type": "number"},
              "period_ms": {"type": "integer", "minimum": 2, "maximum": 86400000},
              "seed": {"type": "integer", "minimum": 0},
              "scale_mv": {"type": "number", "exclusiveMinimum": 0},
              "offset": {"type": "number"}
            }
          }
        }
      }
    }
  }
})json";

}  // namespace mcpud::config
