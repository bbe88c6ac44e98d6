// SPDX-License-Identifier: MIT
// Register, call and result messages of the `##START` services protocol.
#include "services_messages.hpp"

#include <algorithm>
#include <array>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxDepth = 64;
constexpr std::array kKeptKeywords{"description", "enum", "minimum", "maximum", "minLength", "maxLength"};

std::string type_name(const json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  return "object";
}

// Every type a schema allows, from "type" (string or list) and from its
// anyOf/oneOf alternatives.
void collect_types(const json& schema, std::vector<std::string>& out) {
  if (!schema.is_object()) return;
  if (const auto it = schema.find("type"); it != schema.end()) {
    if (it->is_string()) out.push_back(*it);
    if (it->is_array()) {
      for (const auto& t : *it) {
        if (t.is_string()) out.push_back(t);
      }
    }
    return;
  }
  for (const auto* key : {"anyOf", "oneOf"}) {
    if (const auto it = schema.find(key); it != schema.end() && it->is_array()) {
      for (const auto& branch : *it) collect_types(branch, out);
    }
  }
}

std::string one_type(std::vector<std::string> types) {
  std::erase(types, "null");
  const auto has = [&](std::string_view t) { return std::find(types.begin(), types.end(), t) != types.end(); };
  if (types.empty()) return {};
  if (std::all_of(types.begin(), types.end(), [&](const auto& t) { return t == types.front(); })) return types.front();
  if (std::all_of(types.begin(), types.end(), [](const auto& t) { return t == "integer" || t == "number"; }))
    return "number";
  if (has("string")) return "string";
  return types.front();
}

}  // namespace

json reduce_schema(const json& schema) {
  json out = json::object();
  if (!schema.is_object()) return out;
  std::vector<std::string> types;
  collect_types(schema, types);
  if (auto type = one_type(types); !type.empty()) out["type"] = type;
  for (const auto* keyword : kKeptKeywords) {
    if (const auto it = schema.find(keyword); it != schema.end()) out[keyword] = *it;
  }
  if (const auto it = schema.find("properties"); it != schema.end() && it->is_object()) {
    json properties = json::object();
    for (const auto& [name, property] : it->items()) properties[name] = reduce_schema(property);
    out["properties"] = std::move(properties);
  }
  if (const auto it = schema.find("required"); it != schema.end() && it->is_array() && !it->empty()) {
    out["required"] = *it;
  }
  if (const auto it = schema.find("items"); it != schema.end() && it->is_object()) out["items"] = reduce_schema(*it);
  return out;
}

json register_message(const ToolRegistry& registry, const std::function<bool(const Tool&)>& offered) {
  json services = json::object();
  for (const auto& tool : registry.tools()) {
    if (!offered(*tool)) continue;
    json parameters = reduce_schema(tool->input_schema);
    if (!parameters.contains("type")) parameters["type"] = "object";
    if (parameters["type"] == "object" && !parameters.contains("properties")) parameters["properties"] = json::object();
    services[tool->name] = {{"description", tool->description}, {"parameters", std::move(parameters)}};
  }
  return {{"type", "register"}, {"data", {{"services", std::move(services)}}}};
}

McpMessage parse_mcp_message(std::string_view content) {
  McpMessage out;
  if (rpc::nesting_depth(content) > kMaxDepth) {
    out.type = "call";  // cannot tell; answer so the server is not left waiting
    out.problem = "message nested deeper than " + std::to_string(kMaxDepth) + " levels";
    return out;
  }
  const json message = json::parse(content, nullptr, false);
  if (message.is_discarded() || !message.is_object()) {
    out.type = "call";
    out.problem = "message is not a JSON object";
    return out;
  }
  out.type = message.value("type", json()).is_string() ? message["type"].get<std::string>() : "";
  if (out.type != "call") return out;
  const json& data = message.contains("data") ? message["data"] : json();
  if (!data.is_object()) {
    out.problem = "data: expected an object with call_id, method and params";
    return out;
  }
  if (data.contains("call_id") && (data["call_id"].is_string() || data["call_id"].is_number())) {
    out.call_id = data["call_id"];
  }
  if (!data.contains("call_id")) {
    out.problem = "data.call_id: missing";
    return out;
  }
  if (out.call_id.is_null() || (out.call_id.is_string() && out.call_id.get<std::string>().empty())) {
    out.problem = "data.call_id: expected a non-empty string, got " + type_name(data["call_id"]);
    return out;
  }
  if (!data.contains("method")) {
    out.problem = "data.method: missing";
    return out;
  }
  if (!data["method"].is_string() || data["method"].get<std::string>().empty()) {
    out.problem = "data.method: expected a service name, got " + type_name(data["method"]);
    return out;
  }
  json params = data.value("params", json::object());
  if (params.is_string()) {
    // Some servers send the parameters as JSON text.
    const std::string text = params.get<std::string>();
    params = rpc::nesting_depth(text) > kMaxDepth ? json(nullptr) : json::parse(text, nullptr, false);
    if (params.is_discarded() || params.is_null()) {
      out.problem = "data.params: not valid JSON text";
      return out;
    }
  }
  if (params.is_null()) params = json::object();
  if (!params.is_object()) {
    out.problem = "data.params: expected object, got " + type_name(params);
    return out;
  }
  out.call = ServiceCall{out.call_id, data["method"].get<std::string>(), std::move(params)};
  return out;
}

json failure_message(const json& call_id, const std::string& error) {
  return {{"type", "result"}, {"data", {{"call_id", call_id}, {"result", {{"success", false}, {"error", error}}}}}};
}

json result_message(const json& call_id, const ToolResult& result) {
  if (!result) {
    const auto& e = result.error();
    return failure_message(call_id, e.name.empty() ? e.message : e.name + ": " + e.message);
  }
  return {{"type", "result"}, {"data", {{"call_id", call_id}, {"result", {{"success", true}, {"data", *result}}}}}};
}

std::string auth_content(std::string_view token, std::string_view voice_id, std::string_view lang,
                         std::string_view format) {
  std::string out(token);
  const auto option = [&](std::string_view key, std::string_view value) {
    if (!value.empty()) out.append("##").append(key).append(":").append(value);
  };
  option("voiceid", voice_id);
  option("lang", lang);
  option("format", format);
  return out;
}

}  // namespace mcpud::uplinks
