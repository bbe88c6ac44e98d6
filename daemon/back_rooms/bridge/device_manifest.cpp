// SPDX-License-Identifier: MIT
// list_tools replies to tool and pin descriptions; the fallback schemas.
#include "device_manifest.hpp"

#include <algorithm>
#include <limits>

#include "mcpud/core/shown_text.hpp"

namespace mcpud::bridge {
namespace {

using nlohmann::json;

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

// The text of a device's string member `key`, made fit to show; "" when absent or not a string.
std::string shown_member(const json& entry, const char* key) {
  const auto member = entry.find(key);
  return member != entry.end() && member->is_string() ? one_line_text(member->get_ref<const std::string&>()) : "";
}

// Schema keywords whose values are data (what an argument may be), not words for people.
bool holds_data(std::string_view keyword) {
  return keyword == "default" || keyword == "const" || keyword == "enum" || keyword == "examples";
}

// Cleans every description and title inside `schema` (hosts' tool pickers and the
// dashboard's forms show them). Iterative: a device's schema may nest deeply.
void clean_schema_text(json& schema) {
  std::vector<json*> pending{&schema};
  while (!pending.empty()) {
    json& node = *pending.back();
    pending.pop_back();
    if (node.is_array()) {
      for (auto& item : node) pending.push_back(&item);
      continue;
    }
    if (!node.is_object()) continue;
    for (auto it = node.begin(); it != node.end(); ++it) {
      if ((it.key() == "description" || it.key() == "title") && it->is_string()) {
        *it = one_line_text(it->get_ref<const std::string&>());
      } else if (!holds_data(it.key())) {
        pending.push_back(&*it);
      }
    }
  }
}

// The entry's name, or nullopt after noting why it is not exported.
std::optional<std::string> exported_name(const json& entry, const char* kind, std::string_view prefix,
                                         DeviceManifest& manifest) {
  std::string name = entry["name"].get<std::string>();
  if (auto why = name_refusal(name, prefix)) {
    manifest.refused.push_back({kind, escaped_text(name, kMaxExportedName), std::move(*why)});
    return std::nullopt;
  }
  return name;
}

// The hints in the entry's `annotations`, under MCP's names; a hint that is
// absent or not a boolean keeps its cautious default.
ToolAnnotations hints_of(const json& entry) {
  ToolAnnotations hints;
  const auto given = entry.find("annotations");
  if (given == entry.end() || !given->is_object()) return hints;
  const auto read = [&](const char* key, bool& hint) {
    const auto it = given->find(key);
    if (it == given->end() || !it->is_boolean()) return;
    hint = it->get<bool>();
    hints.from = HintsFrom::Device;
  };
  read("readOnlyHint", hints.read_only);
  read("destructiveHint", hints.destructive);
  read("idempotentHint", hints.idempotent);
  read("openWorldHint", hints.open_world);
  return hints;
}

std::optional<DeviceTool> read_tool(const json& entry, std::string_view prefix, DeviceManifest& manifest) {
  if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) {
    manifest.skipped.push_back("a tool entry without a name");
    return std::nullopt;
  }
  if (entry["name"] == "list_tools") return std::nullopt;
  auto name = exported_name(entry, "tool", prefix, manifest);
  if (!name) return std::nullopt;
  DeviceTool tool;
  tool.name = std::move(*name);
  tool.title = shown_member(entry, "title");
  tool.description = shown_member(entry, "description");
  tool.hints = hints_of(entry);
  const auto schema = entry.find("inputSchema");
  if (schema != entry.end() && usable_schema(*schema)) {
    tool.input_schema = *schema;
    clean_schema_text(tool.input_schema);
    tool.schema_from_device = true;
  } else {
    if (schema != entry.end())
      manifest.skipped.push_back("tool '" + tool.name + "': unusable inputSchema, using a fallback");
    tool.input_schema = fallback_schema(tool.name);
  }
  tool.polling_ms = polling_of(entry);
  return tool;
}

std::optional<DevicePin> read_pin(const json& entry, std::string_view prefix, DeviceManifest& manifest) {
  if (!entry.is_object() || !entry.contains("pin") || !entry["pin"].is_number_integer() || !entry.contains("name") ||
      !entry["name"].is_string()) {
    manifest.skipped.push_back("a pin entry without an integer pin and a name");
    return std::nullopt;
  }
  DevicePin pin;
  const auto number = entry["pin"].get<std::int64_t>();
  if (number < 0 || number > std::numeric_limits<int>::max()) {
    manifest.skipped.push_back("pin " + std::to_string(number) + ": out of range");
    return std::nullopt;
  }
  pin.pin = static_cast<int>(number);
  auto name = exported_name(entry, "pin", prefix, manifest);
  if (!name) return std::nullopt;
  pin.name = std::move(*name);
  pin.type = shown_member(entry, "type");
  pin.description = shown_member(entry, "description");
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

// Appends `item` unless the device listed one of that name already: the second
// is refused, never merged into the first.
template <class T>
void add_unique(std::vector<T>& list, std::optional<T> item, const char* kind, DeviceManifest& manifest) {
  if (!item) return;
  if (std::any_of(list.begin(), list.end(), [&](const T& other) { return other.name == item->name; })) {
    manifest.refused.push_back({kind, item->name, "listed twice (the first is kept)"});
    return;
  }
  list.push_back(std::move(*item));
}

// The length of the UTF-8 character `lead` begins (1 for a byte that begins none),
// so that a refused character is shown whole.
std::size_t utf8_length(char lead) {
  const auto byte = static_cast<unsigned char>(lead);
  return byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
}

bool name_character(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
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

std::optional<std::string> name_refusal(std::string_view name, std::string_view prefix) {
  if (name.empty()) return "the name is empty";
  if (const auto odd = std::find_if_not(name.begin(), name.end(), name_character); odd != name.end()) {
    const auto at = static_cast<std::size_t>(odd - name.begin());
    return "'" + escaped_text(name.substr(at, utf8_length(*odd))) +
           "' is not one of A-Z a-z 0-9 _ - . (the characters of MCP tool names)";
  }
  if (name.find("__") != std::string_view::npos) {
    return "\"__\" separates the bridge id from the name and may not appear in it";
  }
  if (prefix.size() + name.size() > kMaxExportedName) {
    return "'" + std::string(prefix) + "' and the name make " + std::to_string(prefix.size() + name.size()) +
           " characters; hosts take at most " + std::to_string(kMaxExportedName);
  }
  return std::nullopt;
}

Result<DeviceManifest> read_manifest(const json& result, std::string_view prefix) {
  if (!result.is_object() || !result.contains("tools") || !result["tools"].is_array()) {
    return std::unexpected(Error::domain(DomainError::DeviceError, "list_tools reply has no tools array"));
  }
  DeviceManifest manifest;
  for (const auto& entry : result["tools"])
    add_unique(manifest.tools, read_tool(entry, prefix, manifest), "tool", manifest);
  if (const auto pins = result.find("pins"); pins != result.end() && pins->is_array()) {
    for (const auto& entry : *pins) add_unique(manifest.pins, read_pin(entry, prefix, manifest), "pin", manifest);
  }
  return manifest;
}

}  // namespace mcpud::bridge
