// SPDX-License-Identifier: MIT
// The RPC side of mcpud as a front door sees it, for the fuzz targets: a tool
// registry with tools whose schemas use every keyword the validator knows, both
// dialects (MCP/U and MCP) and resource subscriptions installed on one
// dispatcher, and the engine that serves lines from clients.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/tool_registry.hpp"

namespace mcpud::fuzz {

// A client that checks each message it is pushed is one JSON value, and keeps
// none (a fuzz target runs millions of inputs).
class CheckingClient final : public rpc::Client {
 public:
  void push(std::string message) override;
};

class RpcHarness {
 public:
  RpcHarness();
  // Serves one line from `client`; every reply must be a JSON-RPC 2.0 response
  // to it (require_response).
  void serve(std::string_view line, rpc::Client& client);

  ToolRegistry registry;
  EventHub hub;
  rpc::Dispatcher dispatcher{registry};
  rpc::Engine engine{dispatcher};
};

// Aborts (a crash libFuzzer reports) unless `text` is one JSON value.
void require_json(std::string_view text, std::string_view what);

// Aborts unless `reply` is what JSON-RPC 2.0 allows in answer to `line`: one
// response object, or for a batch a non-empty array of them; each with
// "jsonrpc":"2.0", an id that is null or one of the line's requests' ids as
// written, and exactly one of a result and an error with an integer code and a
// string message.
void require_response(std::string_view reply, std::string_view line);

}  // namespace mcpud::fuzz
