// SPDX-License-Identifier: MIT
// Method routing: dialect methods first, then the tool registry.
#include "dialects/dispatcher.hpp"

#include "dialects/client_session.hpp"

namespace mcpud::dialects {

void Dispatcher::handle(rpc::Client& client, std::string_view method, nlohmann::json params, ToolReply reply) {
  if (registry_.calls_observed()) {
    const Caller caller = caller_of(client);
    ToolRegistry::CallerScope scope(registry_, caller);
    return route(client, method, std::move(params), std::move(reply));
  }
  route(client, method, std::move(params), std::move(reply));
}

void Dispatcher::route(rpc::Client& client, std::string_view method, nlohmann::json params, ToolReply reply) {
  if (const auto it = methods_.find(method); it != methods_.end()) {
    it->second(client, std::move(params), std::move(reply));
    return;
  }
  registry_.call(method, std::move(params), std::move(reply));
}

}  // namespace mcpud::dialects
