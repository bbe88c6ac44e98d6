// SPDX-License-Identifier: MIT
// What a device's list_tools reply declares (tools, schemas, polling, pins), read
// into plain structs with fallback schemas where the device gave none (AVR
// boards omit inputSchema to save RAM), names mcpud cannot export refused and
// text meant for people cleaned of control characters. Pure parsing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/tool.hpp"

namespace mcpud::bridge {

struct DeviceTool {
  std::string name;
  std::string title;  // "" when the device gave none
  std::string description;
  // MCP's annotations, as the device gave them (from = Device), or the
  // specification's cautious defaults (from = Nobody).
  ToolAnnotations hints;
  nlohmann::json input_schema;
  bool schema_from_device = false;  // false: a fallback schema
  std::optional<std::uint32_t> polling_ms;
};

struct DevicePin {
  int pin = 0;
  std::string name;
  std::string type;
  std::string description;
  bool buffer = false;  // capabilities.buffer: drained into mcpud's history
  bool summary = false;
  std::uint32_t interval_ms = 1000;
  std::size_t buffer_size = 0;
};

// A tool or pin the device listed that mcpud does not export.
struct Refusal {
  std::string kind;    // "tool" or "pin"
  std::string name;    // as the device gave it, escaped for showing (shown_text.hpp)
  std::string reason;  // why, e.g. "listed twice"
  bool operator==(const Refusal&) const = default;
};

struct DeviceManifest {
  std::vector<DeviceTool> tools;
  std::vector<DevicePin> pins;
  std::vector<Refusal> refused;      // names that cannot be exported, for the log and the bridge's status
  std::vector<std::string> skipped;  // what else was left out or replaced, and why, for the log
};

// Hosts (and the MCP specification) take tool names of at most this many characters.
inline constexpr std::size_t kMaxExportedName = 64;

// Why a device's tool or pin `name` cannot be exported as `prefix` + `name`
// ("uno__" + "gpio_write"), or nullopt when it can: an exported name is 1 to
// kMaxExportedName characters of A-Z a-z 0-9 _ - . (the MCP tool name
// characters), and `name` must not contain "__", which separates the bridge id
// from what follows.
std::optional<std::string> name_refusal(std::string_view name, std::string_view prefix);

// The schema mcpud uses for a built-in MCP/U tool listed without one, or a
// permissive object schema for any other tool.
nlohmann::json fallback_schema(std::string_view tool);

// Reads a list_tools result for a bridge whose names start with `prefix`
// ("uno__"). Fails only when `tools` is missing or not an array. A tool or pin
// whose name name_refusal() refuses, or which repeats an earlier one's name, is
// left out and named in `refused` (the first of a name is kept); other
// malformed entries are skipped and named in `skipped`. Descriptions, and the
// descriptions and titles inside a device's schema, have their control and
// formatting characters replaced by spaces. `list_tools` itself is never
// re-exported: discovery is mcpud's job.
Result<DeviceManifest> read_manifest(const nlohmann::json& list_tools_result, std::string_view prefix);

}  // namespace mcpud::bridge
