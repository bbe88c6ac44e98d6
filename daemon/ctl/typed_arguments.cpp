// SPDX-License-Identifier: MIT
// NAME=VALUE words to JSON, typed by the tool's input schema.
#include "typed_arguments.hpp"

#include <charconv>
#include <cstdint>

namespace mcpud::ctl {
namespace {

using nlohmann::json;

// The schema's "type" for one property: a string, or the first of an array.
std::string declared_type(const json& schema, const std::string& name) {
  if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].contains(name)) return {};
  const json& type = schema["properties"][name].value("type", json());
  if (type.is_string()) return type.get<std::string>();
  if (type.is_array() && !type.empty() && type[0].is_string()) return type[0].get<std::string>();
  return {};
}

std::expected<json, std::string> integer_from(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::unexpected("expected an integer");
  return value;
}

std::expected<json, std::string> number_from(const std::string& text) {
  const json parsed = json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_number()) return std::unexpected("expected a number");
  return parsed;
}

std::expected<json, std::string> boolean_from(const std::string& text) {
  if (text == "true" || text == "1" || text == "on" || text == "yes") return true;
  if (text == "false" || text == "0" || text == "off" || text == "no") return false;
  return std::unexpected("expected true or false");
}

std::expected<json, std::string> typed_value(const std::string& type, const std::string& text) {
  if (type == "string") return json(text);
  if (type == "integer") return integer_from(text);
  if (type == "number") return number_from(text);
  if (type == "boolean") return boolean_from(text);
  const json parsed = json::parse(text, nullptr, false);
  return parsed.is_discarded() ? json(text) : parsed;
}

}  // namespace

std::expected<json, std::string> typed_arguments(const std::vector<std::string>& words, const json& input_schema) {
  if (words.size() == 1 && !words[0].empty() && words[0].front() == '{') {
    json object = json::parse(words[0], nullptr, false);
    if (object.is_discarded() || !object.is_object()) return std::unexpected("'" + words[0] + "': not a JSON object");
    return object;
  }
  json arguments = json::object();
  for (const auto& word : words) {
    const auto equals = word.find('=');
    if (equals == std::string::npos || equals == 0) return std::unexpected("'" + word + "': expected NAME=VALUE");
    const std::string name = word.substr(0, equals);
    auto value = typed_value(declared_type(input_schema, name), word.substr(equals + 1));
    if (!value) return std::unexpected(name + ": " + value.error() + ", got '" + word.substr(equals + 1) + "'");
    arguments[name] = std::move(*value);
  }
  return arguments;
}

}  // namespace mcpud::ctl
