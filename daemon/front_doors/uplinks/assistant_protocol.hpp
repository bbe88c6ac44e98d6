// SPDX-License-Identifier: MIT
// The voice-assistant transport messages around MCP, as plain functions over
// text and JSON (no I/O): the device's hello, the server's hello, goodbye, and
// the {session_id, type:"mcp", payload} envelope of incoming MCP messages.
// Plain data and functions without state; any thread.
#pragma once

#include <expected>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcpud::uplinks {

// The device's hello: {"type":"hello","version":V,"features":{"mcp":true},
// "transport":T,"audio_params":{...}}.
std::string device_hello(int version, std::string_view transport, const nlohmann::json& audio_params);

// What one incoming text message is.
enum class IncomingKind { Hello, Mcp, Goodbye, Other, Invalid };
struct Incoming {
  IncomingKind kind = IncomingKind::Invalid;
  nlohmann::json message;  // parsed, when it is JSON
  std::string problem;     // why it is Invalid
};
Incoming classify(std::string_view text);

// The session id of a server hello, or why the hello is refused (wrong
// transport, no session_id).
std::expected<std::string, std::string> accept_server_hello(const nlohmann::json& hello, std::string_view transport);

// {"session_id":S,"type":"goodbye"}.
std::string goodbye(std::string_view session_id);
// Whether a goodbye ends `session_id` (one that names another session does not).
bool ends_session(const nlohmann::json& goodbye, std::string_view session_id);

// An incoming MCP envelope as the JSON-RPC engine takes it: one without a
// session_id gets the current one.
std::string mcp_envelope(nlohmann::json message, std::string_view session_id);

// A copy of `value` where every member whose name mentions a token, secret or
// password is replaced by "(set)": safe to show or log.
nlohmann::json redact_secrets(const nlohmann::json& value);

}  // namespace mcpud::uplinks
