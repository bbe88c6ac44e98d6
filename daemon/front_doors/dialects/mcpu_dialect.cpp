// SPDX-License-Identifier: MIT
// list_tools in the shape the MCP/U reference client reads.
#include "mcpud/dialects/mcpu_dialect.hpp"

namespace mcpud::dialects {

nlohmann::json list_tools_reply(const ToolRegistry& registry, const DeviceIdentity& identity) {
  auto tools = nlohmann::json::array();
  for (const auto& tool : registry.tools()) {
    nlohmann::json entry = {
        {"name", tool->name}, {"description", tool->description}, {"inputSchema", tool->input_schema}};
    if (tool->annotations.polling_interval_ms) {
      entry["polling"] = {{"enabled", true}, {"interval_ms", *tool->annotations.polling_interval_ms}};
    }
    tools.push_back(std::move(entry));
  }
  return {{"device", identity.device()},
          {"version", identity.version},
          {"tools", std::move(tools)},
          {"pins", identity.pins()}};
}

void install_mcpu_dialect(rpc::Dispatcher& dispatcher, DeviceIdentity identity) {
  auto& registry = dispatcher.registry();
  dispatcher.add_method("list_tools",
                        [&registry, identity = std::move(identity)](rpc::Client&, nlohmann::json, ToolReply reply) {
                          reply(list_tools_reply(registry, identity));
                        });
}

}  // namespace mcpud::dialects
