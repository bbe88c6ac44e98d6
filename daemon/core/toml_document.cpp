// SPDX-License-Identifier: MIT
// TOML to JSON, with what reaches toml++ bounded first.
#include "mcpud/core/toml_document.hpp"

#include <sstream>
#include <vector>

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

// One open array or inline table of a value, as the nesting check follows it.
struct OpenValue {
  bool inline_table = false;
  bool in_key = false;       // inline table: between '{' or ',' and the key's '='
  std::size_t key_dots = 0;  // inline table: dots of the key being read, each a table deeper
};

// Finds a value nested deeper than `limit` (arrays, inline tables, and the
// tables each dotted key inside an inline table opens, across lines), or a key
// of more dotted parts, without parsing: strings and comments are skipped. The
// error starts with the line number.
std::expected<void, std::string> check_toml_nesting(std::string_view text, std::size_t limit) {
  std::size_t line = 1, key_dots = 0, depth = 0;  // depth: of the value being read, key_dots included
  std::vector<OpenValue> open;
  bool in_key = true;  // before the line's '=' (or in a [table] header), outside any value
  const auto too_deep = [&] {
    return std::unexpected(std::to_string(line) + ": arrays or inline tables nested deeper than " +
                           std::to_string(limit));
  };
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
    OpenValue* inner = open.empty() ? nullptr : &open.back();
    if (c == '#') {
      i = std::min(text.find('\n', i), text.size()) - 1;
    } else if (c == '\n') {
      ++line;
      if (open.empty()) {
        key_dots = 0;
        in_key = true;
      }
    } else if (open.empty() && in_key) {
      if (c == '=') in_key = false;
      if (c == '.' && ++key_dots >= limit) {
        return std::unexpected(std::to_string(line) + ": a key of more than " + std::to_string(limit) +
                               " dotted parts");
      }
    } else if (c == '[' || c == '{') {
      open.push_back(OpenValue{.inline_table = c == '{', .in_key = c == '{'});
      if (++depth + key_dots > limit) return too_deep();
    } else if (c == ']' || c == '}') {
      if (inner != nullptr) {
        depth -= 1 + inner->key_dots;
        open.pop_back();
      }
    } else if (inner != nullptr && inner->inline_table) {
      if (c == '=') {
        inner->in_key = false;
      } else if (c == ',') {
        depth -= inner->key_dots;
        *inner = OpenValue{.inline_table = true, .in_key = true};
      } else if (c == '.' && inner->in_key) {
        ++inner->key_dots;
        if (++depth + key_dots > limit) return too_deep();
      }
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
