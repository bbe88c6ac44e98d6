// SPDX-License-Identifier: MIT
// The JSON messages of the `##START` services protocol (type 0x06): the
// register message built from the tool registry with schemas reduced to the
// keywords the server understands, calls parsed, results built, and the AUTH
// content. Plain code, no I/O.
// Plain data and functions without state; any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/tool_registry.hpp"

namespace mcpud::uplinks {

// A JSON Schema restricted to type, required, enum, minimum/maximum,
// minLength/maxLength and description, with properties and items reduced the
// same way. A type union becomes one type: null is dropped, integer|number is
// number, a union holding string is string (the tools accept the string
// form), else its first member; anyOf/oneOf alternatives contribute their types.
nlohmann::json reduce_schema(const nlohmann::json& schema);

// {"type":"register","data":{"services":{NAME:{description, parameters}}}} of
// every tool `offered` accepts, in registration order.
nlohmann::json register_message(const ToolRegistry& registry, const std::function<bool(const Tool&)>& offered);

struct ServiceCall {
  nlohmann::json call_id;  // as the server sent it (string or number)
  std::string method;
  nlohmann::json params = nlohmann::json::object();
};

// What a 0x06 frame from the server asks for.
struct McpMessage {
  std::string type;                 // "call", or whatever else the server sent
  std::optional<ServiceCall> call;  // set for a well-formed call
  std::string problem;              // why a call cannot be served (it has no call)
  nlohmann::json call_id;           // the call's id when it had one (else null), for the failure result
};
McpMessage parse_mcp_message(std::string_view content);

// {"type":"result","data":{"call_id":..,"result":{"success":true,"data":..}}}
// or {"success":false,"error":".."}. A tool's error becomes its message,
// prefixed by the stable name of a domain error ("PIN_NOT_FOUND: ...").
nlohmann::json result_message(const nlohmann::json& call_id, const ToolResult& result);
nlohmann::json failure_message(const nlohmann::json& call_id, const std::string& error);

// `TOKEN##voiceid:V##lang:L##format:F`; options left empty are left out.
std::string auth_content(std::string_view token, std::string_view voice_id, std::string_view lang,
                         std::string_view format);

}  // namespace mcpud::uplinks
