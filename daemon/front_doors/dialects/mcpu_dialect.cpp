// SPDX-License-Identifier: MIT
// list_tools in the shape the MCP/U reference client reads.
#include "mcpud/dialects/mcpu_dialect.hpp"

#include <cstdint>
#include <string>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::dialects {

nlohmann::json list_tools_reply(const ToolRegistry& registry, const DeviceIdentity& identity) {
  return {{"device", identity.device()},
          {"version", identity.version},
          {"tools", tools_of(registry)},
          {"pins", identity.pins()}};
}

namespace {

// The tools part of list_tools, serialized once for each generation of the
// tool set: a burst of list_tools from many clients then costs a copy each,
// not a walk over every schema.
class ToolListing {
 public:
  const std::string& text(const ToolRegistry& registry) {
    if (generation_ != registry.generation() || text_.empty()) {
      text_ = rpc::dump(tools_of(registry));
      generation_ = registry.generation();
    }
    return text_;
  }

 private:
  std::uint64_t generation_ = 0;
  std::string text_;
};

}  // namespace

nlohmann::json tools_of(const ToolRegistry& registry) {
  auto tools = nlohmann::json::array();
  for (const auto& tool : registry.tools()) {
    nlohmann::json entry = {
        {"name", tool->name}, {"description", tool->description}, {"inputSchema", tool->input_schema}};
    if (const auto& interval_ms = tool->annotations.polling_interval_ms) {
      entry["polling"] = {{"enabled", true}, {"interval_ms", *interval_ms}};
    }
    tools.push_back(std::move(entry));
  }
  return tools;
}

void install_mcpu_dialect(rpc::Dispatcher& dispatcher, DeviceIdentity identity) {
  auto& registry = dispatcher.registry();
  dispatcher.add_method("list_tools", [&registry, identity = std::move(identity), listing = ToolListing()](
                                          rpc::Client&, const nlohmann::json&, const ToolReply& reply) mutable {
    // The members in the order a serialized object has them (sorted by name).
    std::string text = R"({"device":)" + rpc::dump(identity.device());
    text += R"(,"pins":)" + rpc::dump(identity.pins());
    text += R"(,"tools":)" + listing.text(registry);
    text += R"(,"version":)" + rpc::dump(identity.version) + "}";
    reply(rpc::serialized_result(text));
  });
}

}  // namespace mcpud::dialects
