// SPDX-License-Identifier: MIT
// TOML to JSON, with what reaches toml++ bounded first.
#include "mcpud/core/toml_document.hpp"

#include <sstream>

#include <toml++/toml.h>

namespace mcpud {
namespace {

using nlohmann::json;

// TOML to JSON so one schema check covers the whole file. Dates and times have
// no use in mcpud's config, so they are refused with the key that holds them.
std::expected<json, std::string> to_json(const toml::node& node, const std::string& path) {
  const auto child_path = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (const auto* table = node.as_table()) {
    json out = json::object();
    for (const auto& [key, value] : *table) {
      const std::string name(key.str());
      auto converted = to_json(value, child_path(name));
      if (!converted) return converted;
      out[name] = std::move(*converted);
    }
    return out;
  }
  if (const auto* array = node.as_array()) {
    json out = json::array();
    for (std::size_t i = 0; i < array->size(); ++i) {
      auto converted = to_json(*array->get(i), path + "[" + std::to_string(i) + "]");
      if (!converted) return converted;
      out.push_back(std::move(*converted));
    }
    return out;
  }
  if (const auto* v = node.as_string()) return json(v->get());
  if (const auto* v = node.as_integer()) return json(v->get());
  if (const auto* v = node.as_floating_point()) return json(v->get());
  if (const auto* v = node.as_boolean()) return json(v->get());
  return std::unexpected(path + ": dates and times are not accepted here");
}

constexpr std::size_t kMaxConfigNesting = 64;

// Finds a key with more dotted parts, or a value with deeper arrays and inline
// tables, than `limit`, without parsing: strings and comments are skipped. The
// error starts with the line number.
std::expected<void, std::string> check_toml_nesting(std::string_view text, std::size_t limit) {
  std::size_t line = 1, depth = 0, dots = 0;
  bool in_key = true;  // before the line's '=' (or in a [table] header)
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      const bool triple = text.substr(i, 3) == std::string(3, c);
      std::size_t end = i + (triple ? 3 : 1);
      // Skip to the closing quote(s); in basic strings a backslash escapes the next character.
      while (end < text.size() &&
             (triple ? text.substr(end, 3) != std::string(3, c) : text[end] != c && text[end] != '\n')) {
        if (text[end] == '\n') ++line;
        end += (c == '"' && text[end] == '\\') ? 2 : 1;
      }
      if (end >= text.size()) break;                               // unterminated: the parser reports it
      i = triple ? end + 2 : (text[end] == '\n' ? end - 1 : end);  // a one-line string cut by its line: go on there
      continue;
    }
    if (c == '#') {
      i = std::min(text.find('\n', i), text.size()) - 1;
    } else if (c == '\n') {
      ++line;
      dots = 0;
      in_key = depth == 0;
    } else if (c == '=' && depth == 0) {
      in_key = false;
    } else if (c == '.' && ++dots >= (in_key ? limit : limit * 16)) {
      // In a value a dot may be a decimal point: only a line full of them is refused.
      return std::unexpected(std::to_string(line) + ": a key of more than " + std::to_string(limit) + " dotted parts");
    } else if ((c == '[' || c == '{') && !in_key && ++depth > limit) {
      return std::unexpected(std::to_string(line) + ": arrays or inline tables nested deeper than " +
                             std::to_string(limit));
    } else if ((c == ']' || c == '}') && !in_key && depth > 0) {
      --depth;
    }
  }
  return {};
}

}  // namespace

std::expected<json, std::string> read_toml_document(std::string_view toml_text, std::string_view source) {
  // toml++ parses nesting recursively: bound what reaches it.
  if (toml_text.size() > kMaxConfigBytes) {
    return std::unexpected(std::string(source) + ": " + std::to_string(toml_text.size()) +
                           " bytes, more than a configuration may have (" + std::to_string(kMaxConfigBytes) + ")");
  }
  if (auto nesting = check_toml_nesting(toml_text, kMaxConfigNesting); !nesting)
    return std::unexpected(std::string(source) + ":" + nesting.error());
  toml::table table;
  try {
    table = toml::parse(toml_text, source);
  } catch (const toml::parse_error& e) {
    std::ostringstream message;
    message << source << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
    return std::unexpected(message.str());
  }
  auto document = to_json(table, "");
  if (!document) return std::unexpected(std::string(source) + ": " + document.error());
  return document;
}

}  // namespace mcpud
