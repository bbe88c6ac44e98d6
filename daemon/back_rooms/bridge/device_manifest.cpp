// SPDX-License-Identifier: MIT
// list_tools replies to tool and pin descriptions; the fallback schemas.
#include "device_manifest.hpp"

#include <limits>

namespace mcpud::bridge {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxToolName = 64;
constexpr std::uint32_t kMinPollingMs = 50;  // a device asking for less gets this

json object_schema(json properties, json required) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

json pin_number() { return {{"type", "integer"}, {"description", "Pin number"}}; }

// A non-negative integer (parsed text gives unsigned, built JSON signed).
std::optional<std::uint64_t> count_of(const json& value) {
  if (!value.is_number_integer() || (!value.is_number_unsigned() && value.get<std::int64_t>() < 0)) {
    return std::nullopt;
  }
  return value.get<std::uint64_t>();
}

// Accepts a device schema that describes an object; anything else is replaced.
bool usable_schema(const json& schema) {
  if (!schema.is_object()) return false;
  const auto type = schema.find("type");
  if (type != schema.end() && *type != "object") return false;
  const auto properties = schema.find("properties");
  return properties == schema.end() || properties->is_object();
}

std::optional<std::uint32_t> polling_of(const json& tool) {
  const auto polling = tool.find("polling");
  if (polling == tool.end() || !polling->is_object() || !polling->value("enabled", false)) return std::nullopt;
  const auto ms = count_of(polling->value("interval_ms", json()));
  if (!ms) return std::nullopt;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(*ms, kMinPollingMs, 86'400'000));
}

std::optional<DeviceTool> read_tool(const json& entry, std::vector<std::string>& skipped) {
  if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) {
    skipped.push_back("a tool entry without a name");
    return std::nullopt;
  }
  DeviceTool tool;
  tool.name = entry["name"].get<std::string>();
  if (tool.name.empty() || tool.name.size() > kMaxToolName || tool.name == "list_tools") {
    if (tool.name != "list_tools") skipped.push_back("tool '" + tool.name.substr(0, kMaxToolName) + "': bad name");
    return std::nullopt;
  }
  tool.description = entry.value("description", json("")).is_string() ? entry.value("description", "") : "";
  const auto schema = entry.find("inputSchema");
  if (schema != entry.end() && usable_schema(*schema)) {
    tool.input_schema = *schema;
    tool.schema_from_device = true;
  } else {
    if (schema != entry.end()) skipped.push_back("tool '" + tool.name + "': unusable inputSchema, using a fallback");
    tool.input_schema = fallback_schema(tool.name);
  }
  tool.polling_ms = polling_of(entry);
  return tool;
}

std::optional<DevicePin> read_pin(const json& entry, std::vector<std::string>& skipped) {
  if (!entry.is_object() || !entry.contains("pin") || !entry["pin"].is_number_integer() || !entry.contains("name") ||
      !entry["name"].is_string()) {
    skipped.push_back("a pin entry without an integer pin and a name");
    return std::nullopt;
  }
  DevicePin pin;
  const auto number = entry["pin"].get<std::int64_t>();
  if (number < 0 || number > std::numeric_limits<int>::max()) {
    skipped.push_back("pin " + std::to_string(number) + ": out of range");
    return std::nullopt;
  }
  pin.pin = static_cast<int>(number);
  pin.name = entry["name"].get<std::string>();
  pin.type = entry.value("type", json("")).is_string() ? entry.value("type", "") : "";
  pin.description = entry.value("description", json("")).is_string() ? entry.value("description", "") : "";
  if (const auto caps = entry.find("capabilities"); caps != entry.end() && caps->is_object()) {
    pin.buffer = caps->value("buffer", json(false)).is_boolean() && caps->value("buffer", false);
    pin.summary = caps->value("summary", json(false)).is_boolean() && caps->value("summary", false);
  }
  if (const auto sampling = entry.find("sampling"); sampling != entry.end() && sampling->is_object()) {
    const auto interval = count_of(sampling->value("interval_ms", json()));
    const auto size = count_of(sampling->value("buffer_size", json()));
    if (interval && *interval > 0)
      pin.interval_ms = static_cast<std::uint32_t>(std::min<std::uint64_t>(*interval, 86'400'000));
    if (size) pin.buffer_size = static_cast<std::size_t>(std::min<std::uint64_t>(*size, 100'000));
  }
  if (pin.buffer && pin.buffer_size == 0) pin.buffer = false;  // nothing to drain
  return pin;
}

// Appends `item` unless the device listed one of that name already.
template <class T>
void add_unique(std::vector<T>& list, std::optional<T> item, const char* kind, std::vector<std::string>& skipped) {
  if (!item) return;
  if (std::any_of(list.begin(), list.end(), [&](const T& other) { return other.name == item->name; })) {
    skipped.push_back(std::string(kind) + " '" + item->name + "': listed twice");
    return;
  }
  list.push_back(std::move(*item));
}

}  // namespace

json fallback_schema(std::string_view tool) {
  if (tool == "gpio_write") {
    return object_schema(
        {{"pin", pin_number()}, {"value", {{"type", "boolean"}, {"description", "true = HIGH, false = LOW"}}}},
        {"pin", "value"});
  }
  if (tool == "gpio_read" || tool == "adc_read") return object_schema({{"pin", pin_number()}}, {"pin"});
  if (tool == "pwm_write") {
    return object_schema(
        {{"pin", pin_number()},
         {"duty", {{"type", "integer"}, {"minimum", 0}, {"maximum", 255}, {"description", "0 = off, 255 = fully on"}}}},
        {"pin", "duty"});
  }
  if (tool == "get_pin_summary" || tool == "get_pin_events") return object_schema({{"pin", pin_number()}}, {"pin"});
  if (tool == "get_pin_buffer") {
    return object_schema(
        {{"pin", pin_number()},
         {"limit", {{"type", "integer"}, {"minimum", 1}, {"description", "At most this many samples, oldest first"}}}},
        {"pin"});
  }
  if (tool == "get_info") return object_schema(json::object(), json::array());
  // An unknown custom tool: any object, passed through as given.
  return {{"type", "object"}};
}

Result<DeviceManifest> read_manifest(const json& result) {
  if (!result.is_object() || !result.contains("tools") || !result["tools"].is_array()) {
    return std::unexpected(Error::domain(DomainError::DeviceError, "list_tools reply has no tools array"));
  }
  DeviceManifest manifest;
  for (const auto& entry : result["tools"])
    add_unique(manifest.tools, read_tool(entry, manifest.skipped), "tool", manifest.skipped);
  if (const auto pins = result.find("pins"); pins != result.end() && pins->is_array()) {
    for (const auto& entry : *pins)
      add_unique(manifest.pins, read_pin(entry, manifest.skipped), "pin", manifest.skipped);
  }
  return manifest;
}

}  // namespace mcpud::bridge
