// SPDX-License-Identifier: MIT
// Builds the retained info document of fleet mode.
#include "fleet_info.hpp"

#include <memory>

namespace mcpud::uplinks {

namespace {

struct Gather {
  nlohmann::json document;
  int waiting = 2;
  std::function<void(nlohmann::json)> done;
  rpc::DetachedClient client;

  void part(const char* what, const ToolResult& result, const std::function<void(const nlohmann::json&)>& take) {
    if (result) {
      take(*result);
    } else {
      document["errors"][what] = result.error().message;
    }
    if (--waiting == 0) done(std::move(document));
  }
};

}  // namespace

void collect_fleet_info(const InfoSources& sources, std::function<void(nlohmann::json)> done) {
  auto gather = std::make_shared<Gather>();
  gather->done = std::move(done);
  const auto& t = sources.topics;
  gather->document = {
      {"device", sources.device},
      {"version", sources.version},
      {"mqtt_version", sources.mqtt5 ? "5" : "3.1.1"},
      {"topics",
       {{"request", t.request()},
        {"reply_fallback", t.reply_fallback("<client-id>")},
        {"request_fallback", t.request() + "/<client-id>"},
        {"status", t.status()},
        {"events", t.events("<pin>")}}},
  };
  sources.dispatcher.handle(gather->client, "get_info", nlohmann::json::object(), [gather](ToolResult result) {
    gather->part("get_info", result, [&](const nlohmann::json& info) { gather->document["info"] = info; });
  });
  sources.dispatcher.handle(gather->client, "list_tools", nlohmann::json::object(), [gather](ToolResult result) {
    gather->part("list_tools", result, [&](const nlohmann::json& serialized) {
      const auto list = rpc::result_value(serialized);
      gather->document["tools"] = list.value("tools", nlohmann::json::array());
      gather->document["pins"] = list.value("pins", nlohmann::json::array());
    });
  });
}

}  // namespace mcpud::uplinks
