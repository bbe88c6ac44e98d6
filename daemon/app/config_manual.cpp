// SPDX-License-Identifier: MIT
// The configuration schema as a manual page.
#include "config_manual.hpp"

#include <string_view>

namespace mcpud::config {
namespace {

using nlohmann::json;

// Text as roff reads it: backslashes and hyphens literal, no line taken for a request.
std::string roff(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

// A value as it would be written in the TOML file.
std::string toml_value(const json& value) {
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + toml_value(value[i]);
    return out + "]";
  }
  if (value.is_object()) return value.empty() ? "{}" : value.dump();
  return value.dump();
}

bool is_table(const json& node) { return node.value("type", json()) == "object" && node.contains("properties"); }

bool is_array_of_tables(const json& node) {
  return node.value("type", json()) == "array" && node.contains("items") && is_table(node["items"]);
}

std::string type_name(const json& node) {
  if (node.contains("anyOf") || node.contains("oneOf")) return "one of several forms";
  if (is_array_of_tables(node)) return "array of tables";
  const auto type = node.value("type", json());
  if (type.is_array()) {
    std::string out;
    for (const auto& one : type) out += (out.empty() ? "" : " or ") + one.get<std::string>();
    return out;
  }
  if (type == "array" && node.contains("items") && node["items"].contains("type")) {
    return "array of " + type_name(node["items"]) + "s";
  }
  if (type == "object") return "table";
  return type.is_string() ? type.get<std::string>() : "value";
}

// Range, length, pattern and choices of a value, e.g. "from 1 to 100000".
std::string limits_of(const json& node) {
  std::string out;
  const auto add = [&](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  if (node.contains("minimum") && node.contains("maximum")) {
    add("from " + node["minimum"].dump() + " to " + node["maximum"].dump());
  } else if (node.contains("minimum")) {
    add("at least " + node["minimum"].dump());
  } else if (node.contains("maximum")) {
    add("at most " + node["maximum"].dump());
  }
  if (node.value("minLength", 0) == 1) {
    add("not empty");
  } else if (node.contains("minLength")) {
    add("at least " + node["minLength"].dump() + " characters");
  }
  if (node.contains("maxLength")) add("at most " + node["maxLength"].dump() + " characters");
  if (node.contains("minItems")) add("at least " + node["minItems"].dump() + " entries");
  if (node.contains("maxItems")) add("at most " + node["maxItems"].dump() + " entries");
  if (node.contains("pattern")) add("matching " + node["pattern"].get<std::string>());
  const json& choices =
      node.contains("enum") ? node["enum"] : node.value("items", json::object()).value("enum", json());
  if (choices.is_array()) {
    std::string listed;
    for (const auto& choice : choices) listed += (listed.empty() ? "" : ", ") + toml_value(choice);
    add("one of " + listed);
  }
  return out;
}

bool required_in(const json& parent, const std::string& key) {
  const auto found = parent.find("required");
  if (found == parent.end()) return false;
  for (const auto& name : *found)
    if (name == key) return true;
  return false;
}

// Every key of `table`, nested tables as dotted keys (unless `tables_apart`:
// the caller gives them sections of their own) and the tables of an array as
// `key[].name`, each an indented paragraph.
void describe_keys(const json& table, const std::string& prefix, std::string& out, bool tables_apart = false) {
  for (const auto& [key, node] : table["properties"].items()) {
    const auto path = prefix + key;
    if (is_table(node)) {
      if (!tables_apart) describe_keys(node, path + ".", out);
      continue;
    }
    out += ".TP\n.B " + roff(path) + "\n" + roff(type_name(node));
    if (required_in(table, key)) out += ", required";
    if (node.contains("default") && !(node["default"].is_object() && node["default"].empty())) {
      out += "; default " + roff(toml_value(node["default"]));
    }
    if (const auto limits = limits_of(node); !limits.empty()) out += "; " + roff(limits);
    out += "\n";
    if (is_array_of_tables(node)) describe_keys(node["items"], path + "[].", out);
  }
}

constexpr std::string_view kHead = R"(.\" SPDX-License-Identifier: MIT
.\" Made from the configuration schema by config_manual.cpp; the unit test
.\" ConfigManual.TheCommittedPageIsTheSchemas says when it must be made again.
.TH MCPUD.TOML 5 "" "mcpud @PROJECT_VERSION@" "File Formats"
.SH NAME
mcpud.toml \- configuration file of mcpud
.SH DESCRIPTION
.B mcpud
reads its configuration from
.I /etc/mcpud/mcpud.toml
(or the file
.B \-c
names; without one it runs the built\-in simulated board). The file is TOML;
every key is optional unless marked required, and a key this page does not
list is an error naming it.
.B mcpud \-\-check\-config
.I file
checks a file and prints what it resolves to; SIGHUP applies a changed file
(a file with an error is refused and the running configuration stays).
.PP
This page lists every table and key with its type, default, range and choices,
as the daemon checks them. What each feature does is in the documents under
.IR /usr/share/doc/mcpud/ ;
the packaged
.I /etc/mcpud/mcpud.toml
shows every table with comments.
)";

}  // namespace

std::string manual_page(const json& schema, const std::string& version) {
  std::string out(kHead);
  if (const auto at = out.find("@PROJECT_VERSION@"); at != std::string::npos) {
    out.replace(at, std::string_view("@PROJECT_VERSION@").size(), version);
  }
  out += ".SH TOP\\-LEVEL KEYS\n";
  json top = {{"properties", json::object()}};
  for (const auto& [key, node] : schema["properties"].items()) {
    if (!is_table(node) && !is_array_of_tables(node)) top["properties"][key] = node;
  }
  describe_keys(top, "", out);
  out += ".SH TABLES\n";
  for (const auto& [key, node] : schema["properties"].items()) {
    if (is_table(node)) {
      std::string own;  // the keys that are not tables of their own
      describe_keys(node, "", own, /*tables_apart=*/true);
      if (!own.empty()) out += ".SS [" + roff(key) + "]\n" + own;
      for (const auto& [name, inner] : node["properties"].items()) {
        if (!is_table(inner)) continue;
        out += ".SS [" + roff(key + "." + name) + "]\n";
        describe_keys(inner, "", out);
      }
    } else if (is_array_of_tables(node)) {
      out += ".SS [[" + roff(key) + "]]\n";
      describe_keys(node["items"], "", out);
    }
  }
  out += ".SH SEE ALSO\n.BR mcpud (8),\n.BR mcpuctl (1),\n.BR mcpud\\-stdio (1)\n";
  return out;
}

}  // namespace mcpud::config
