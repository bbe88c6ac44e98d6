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
  // Serves one line from `client`; every reply must be one JSON text.
  void serve(std::string_view line, rpc::Client& client);

  ToolRegistry registry;
  EventHub hub;
  rpc::Dispatcher dispatcher{registry};
  rpc::Engine engine{dispatcher};
};

// Aborts (a crash libFuzzer reports) unless `text` is one JSON value.
void require_json(std::string_view text, std::string_view what);

}  // namespace mcpud::fuzz
