// SPDX-License-Identifier: MIT
// What one MCP request says about the protocol it speaks: MCP 2026-07-28 puts
// the version, the client's capabilities and a log level in every request's
// _meta (modern); earlier revisions negotiate them once per connection with
// initialize (legacy). The dialect serves both eras from the same methods, with
// this context in place of state held per connection.
// Plain data and functions without state; any thread.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/dialects/client_session.hpp"

namespace mcpud::dialects {

struct McpRequest {
  bool modern = false;
  // The revision the request is served by: its own (modern) or the one its
  // connection negotiated ("" when it never sent initialize).
  std::string version;
  // Modern: what the request's _meta declares (an object). Legacy: null.
  nlohmann::json client_capabilities;
  // Modern: the level the request asked for, none when it asked for no log
  // messages. Legacy: the connection's logging/setLevel.
  std::optional<McpLogLevel> log_level;
};

// Whether `params._meta` names a protocol version: the request is modern.
bool names_protocol_version(const nlohmann::json& params);

// The context of a modern request, or the error that answers it: the version
// unsupported (-32022 with data {supported, requested}), a required key missing
// or malformed (-32602 naming the key).
Result<McpRequest> modern_request(const nlohmann::json& params);

// Every version mcpud speaks, modern first, then legacy newest first.
nlohmann::json supported_versions();

}  // namespace mcpud::dialects
