// SPDX-License-Identifier: MIT
// subscribe / unsubscribe for MCP/U clients on any line transport.
#include "mcpud/dialects/mcpu_subscribe.hpp"

#include "mcpud/dialects/client_session.hpp"

namespace mcpud::dialects {
namespace {

using nlohmann::json;

// params.uris as strings, each one subscribable (and, to subscribe, one that
// exists for `caller`); errors name the element.
Result<std::vector<std::string>> read_uris(const json& params, const ResourceExists& exists, const Caller* caller) {
  const auto it = params.find("uris");
  if (it == params.end()) return std::unexpected(Error::invalid_params("params.uris: required"));
  if (!it->is_array())
    return std::unexpected(Error::invalid_params(std::string("params.uris: expected array, got ") + it->type_name()));
  std::vector<std::string> uris;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const auto field = "params.uris[" + std::to_string(i) + "]";
    const auto& uri = (*it)[i];
    if (!uri.is_string())
      return std::unexpected(Error::invalid_params(field + ": expected string, got " + uri.type_name()));
    const auto& text = uri.get_ref<const std::string&>();
    if (auto ok = check_subscribable(text, field); !ok) return std::unexpected(ok.error());
    if (caller && !exists(text, *caller)) {
      return std::unexpected(
          Error::domain(DomainError::ResourceNotFound, field + ": resource not found: " + text.substr(0, 200)));
    }
    uris.push_back(text);
  }
  return uris;
}

}  // namespace

void install_mcpu_subscribe(rpc::Dispatcher& dispatcher, EventHub& hub, ResourceExists exists) {
  for (const bool subscribe : {true, false}) {
    dispatcher.add_method(subscribe ? "subscribe" : "unsubscribe",
                          [&hub, exists, subscribe](rpc::Client& client, json params, ToolReply reply) {
                            auto uris = read_uris(params, exists, subscribe ? &client.caller : nullptr);
                            if (!uris) return reply(std::unexpected(uris.error()));
                            auto& session = client_session(client, hub);
                            for (const auto& uri : *uris) {
                              if (auto done = session.set_subscribed(uri, subscribe); !done)
                                return reply(std::unexpected(done.error()));
                            }
                            reply(json{{"subscribed", json(session.uris)}});
                          });
  }
}

}  // namespace mcpud::dialects
