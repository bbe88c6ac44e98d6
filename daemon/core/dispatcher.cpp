// SPDX-License-Identifier: MIT
// Method routing: dialect methods first, then the tool registry.
#include "mcpud/core/dispatcher.hpp"

namespace mcpud::rpc {

void Dispatcher::handle(rpc::Client& client, std::string_view method, nlohmann::json&& params, ToolReply&& reply) {
  if (const auto it = methods_.find(method); it != methods_.end()) {
    it->second.method(client, std::move(params), std::move(reply));
    return;
  }
  if (unrouted_ && unrouted_(method, params, reply)) return;
  registry_.call(client.caller, method, std::move(params), std::move(reply));
}

ErrorCodes Dispatcher::error_codes(std::string_view method) const {
  const auto it = methods_.find(method);
  return it == methods_.end() ? ErrorCodes::Mcpu : it->second.codes;
}

}  // namespace mcpud::rpc
