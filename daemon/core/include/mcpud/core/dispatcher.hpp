// SPDX-License-Identifier: MIT
// Routes a JSON-RPC method to a dialect's own method (list_tools, initialize, ...)
// or, failing that, to the registry tool of that name.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/tool_registry.hpp"

namespace mcpud::rpc {

class Dispatcher final : public rpc::MethodHandler {
 public:
  using Method = std::function<void(rpc::Client& client, nlohmann::json&& params, ToolReply&& reply)>;

  explicit Dispatcher(ToolRegistry& registry) : registry_(registry) {}

  // Dialect methods take precedence over tools of the same name. `codes`: how
  // the errors of its replies are numbered (tools answer in MCP/U's numbering).
  void add_method(std::string name, Method method, ErrorCodes codes = ErrorCodes::Mcpu) {
    methods_[std::move(name)] = {std::move(method), codes};
  }

  // Decides on a request no dialect method serves before the tool of that name
  // gets it: answers it and returns true, or returns false to leave it to the
  // registry. The MCP dialect refuses modern (2026-07-28) requests there.
  using Unrouted = std::function<bool(std::string_view method, const nlohmann::json& params, ToolReply& reply)>;
  void on_unrouted(Unrouted unrouted) { unrouted_ = std::move(unrouted); }

  void handle(rpc::Client& client, std::string_view method, nlohmann::json&& params, ToolReply&& reply) override;
  ErrorCodes error_codes(std::string_view method) const override;

  ToolRegistry& registry() { return registry_; }

 private:
  ToolRegistry& registry_;
  struct Route {
    Method method;
    ErrorCodes codes;
  };
  std::map<std::string, Route, std::less<>> methods_;
  Unrouted unrouted_;
};

}  // namespace mcpud::rpc
