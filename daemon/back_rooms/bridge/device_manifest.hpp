// SPDX-License-Identifier: MIT
// What a device's list_tools reply declares (tools, schemas, polling, pins), read
// into plain structs with fallback schemas where the device gave none (AVR
// boards omit inputSchema to save RAM). Pure parsing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"

namespace mcpud::bridge {

struct DeviceTool {
  std::string name;
  std::string description;
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

struct DeviceManifest {
  std::vector<DeviceTool> tools;
  std::vector<DevicePin> pins;
  std::vector<std::string> skipped;  // what was left out, and why, for the log
};

// The schema mcpud uses for a built-in MCP/U tool listed without one, or a
// permissive object schema for any other tool.
nlohmann::json fallback_schema(std::string_view tool);

// Reads a list_tools result. Fails only when `tools` is missing or not an array;
// single malformed entries are skipped and named in `skipped`. `list_tools`
// itself is never re-exported: discovery is mcpud's job.
Result<DeviceManifest> read_manifest(const nlohmann::json& list_tools_result);

}  // namespace mcpud::bridge
