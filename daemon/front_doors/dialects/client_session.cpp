// SPDX-License-Identifier: MIT
// Event to notification translation for subscribed clients.
#include "mcpud/dialects/client_session.hpp"

#include <algorithm>
#include <array>

namespace mcpud::dialects {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 8> kLevelNames = {"debug", "info",     "notice", "warning",
                                                         "error", "critical", "alert",  "emergency"};

struct UriKind {
  EventKind kind;
  std::string_view prefix;
  bool per_source = true;  // the event's source completes the URI; else the prefix is the URI
};
// Events that update a resource, and the URI (prefix) of that resource.
constexpr std::array kUriKinds = {UriKind{EventKind::PinEvent, "mcpu://pins/"},
                                  UriKind{EventKind::PinChanged, "mcpu://pins/"},
                                  UriKind{EventKind::SerialData, "mcpu://serial/"},
                                  UriKind{EventKind::ToolPolled, "mcpu://tools/"},
                                  UriKind{EventKind::PinSampled, "mcpu://samples/"},
                                  UriKind{EventKind::ToolCalled, "mcpu://daemon/activity", false},
                                  UriKind{EventKind::LogLine, "mcpu://daemon/log", false},
                                  UriKind{EventKind::StatusChanged, "mcpu://daemon/status", false},
                                  UriKind{EventKind::BusTransfer, "mcpu://daemon/buses", false},
                                  UriKind{EventKind::SafetyChanged, "mcpu://daemon/safety", false}};

bool names(const UriKind& entry, std::string_view uri) {
  if (!entry.per_source) return uri == entry.prefix;
  return uri.starts_with(entry.prefix) && uri.size() > entry.prefix.size();
}

// The daemon's own levels ("debug", "info", "warn", "error") in MCP terms.
McpLogLevel level_of_log_event(const json& data) {
  const std::string level = data.is_object() ? data.value("level", "info") : "info";
  if (level == "warn" || level == "warning") return McpLogLevel::Warning;
  return parse_mcp_log_level(level).value_or(McpLogLevel::Info);
}

}  // namespace

std::optional<McpLogLevel> parse_mcp_log_level(std::string_view name) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
    if (kLevelNames[i] == name) return static_cast<McpLogLevel>(i);
  }
  return std::nullopt;
}

std::string_view mcp_log_level_name(McpLogLevel level) { return kLevelNames[static_cast<std::size_t>(level)]; }

ClientSession& client_session(rpc::Client& client, EventHub& hub) {
  if (auto* session = dynamic_cast<ClientSession*>(client.state.get())) return *session;
  auto session = std::make_unique<ClientSession>();
  session->hub = &hub;
  // The subscription lives inside the client's state, so `client` outlives it.
  session->events = hub.subscribe([&client, raw = session.get()](const Event& event) { deliver(client, *raw, event); });
  auto& ref = *session;
  client.state = std::move(session);
  return ref;
}

std::optional<std::string> event_uri(const Event& event) {
  for (const auto& entry : kUriKinds) {
    if (entry.kind != event.kind) continue;
    return entry.per_source ? std::string(entry.prefix) + event.source : std::string(entry.prefix);
  }
  return std::nullopt;
}

void ClientSession::declare_interests() {
  interests.clear();
  if (!hub) return;
  const auto named = [](const UriKind& entry, const auto& set) {
    return std::any_of(set.begin(), set.end(), [&](const std::string& uri) { return names(entry, uri); });
  };
  for (const auto& entry : kUriKinds) {
    const bool listened = std::any_of(listens.begin(), listens.end(),
                                      [&](const auto& listen) { return named(entry, listen.second.uris); });
    if (named(entry, uris) || listened) interests.push_back(hub->want(entry.kind));
  }
}

Result<void> ClientSession::add_listen(std::string key, Listen listen) {
  if (listens.size() >= kMaxListens && !listens.contains(key))
    return std::unexpected(Error::invalid_params("too many subscriptions/listen streams on this connection (at most " +
                                                 std::to_string(kMaxListens) + "); cancel one first"));
  std::size_t held = uris.size() + listen.uris.size();
  for (const auto& [other, open] : listens) held += other == key ? 0 : open.uris.size();
  if (held > kMaxSubscriptions)
    return std::unexpected(Error::invalid_params("too many resource subscriptions on this connection (at most " +
                                                 std::to_string(kMaxSubscriptions) + "); cancel some first"));
  listens.insert_or_assign(std::move(key), std::move(listen));
  declare_interests();
  return {};
}

Result<void> check_subscribable(std::string_view uri, std::string_view field) {
  for (const auto& entry : kUriKinds) {
    if (names(entry, uri)) return {};
  }
  return std::unexpected(Error::invalid_params(
      std::string(field) + ": '" + std::string(uri) +
      "' is not a subscribable resource (expected mcpu://pins/<name>, mcpu://serial/<session_id>, "
      "mcpu://tools/<name>, mcpu://samples/<pin>, mcpu://daemon/activity, mcpu://daemon/log, mcpu://daemon/status or "
      "mcpu://daemon/buses)"));
}

namespace {

// An event to the listen streams that asked for it, each notification tagged
// with its stream's id; never log messages (request-scoped in 2026-07-28).
void deliver_to_listens(rpc::Client& client, const ClientSession& session, const Event& event) {
  const auto tagged = [](const Listen& listen, json params) {
    params["_meta"][kMetaSubscriptionId] = listen.id;
    return params;
  };
  if (event.kind == EventKind::ToolsChanged || event.kind == EventKind::ResourcesChanged) {
    const bool tools = event.kind == EventKind::ToolsChanged;
    for (const auto& [key, listen] : session.listens) {
      if (tools ? listen.tools : listen.resources)
        client.notify(tools ? "notifications/tools/list_changed" : "notifications/resources/list_changed",
                      tagged(listen, json::object()));
    }
    return;
  }
  const auto uri = event_uri(event);
  if (!uri) return;
  for (const auto& [key, listen] : session.listens) {
    if (listen.uris.contains(*uri))
      client.notify("notifications/resources/updated",
                    tagged(listen, {{"uri", *uri}, {"event", event_kind_name(event.kind)}, {"data", event.data}}));
  }
}

}  // namespace

void deliver(rpc::Client& client, const ClientSession& session, const Event& event) {
  if (event.audience && event.audience != client.caller.identity) return;  // another client's
  if (!session.listens.empty()) deliver_to_listens(client, session, event);
  if (event.kind == EventKind::ToolsChanged) {
    if (client.mcp_initialized) client.notify("notifications/tools/list_changed", json::object());
    return;
  }
  if (event.kind == EventKind::ResourcesChanged) {
    if (client.mcp_initialized) client.notify("notifications/resources/list_changed", json::object());
    return;
  }
  if (event.kind == EventKind::Log) {
    const auto level = level_of_log_event(event.data);
    if (!client.mcp_initialized || level < session.log_level) return;
    const json message = event.data.is_object() ? event.data.value("message", json("")) : event.data;
    client.notify("notifications/message",
                  json{{"level", mcp_log_level_name(level)}, {"logger", event.source}, {"data", message}});
    return;
  }
  const auto uri = event_uri(event);
  if (!uri || !session.uris.contains(*uri)) return;
  client.notify("notifications/resources/updated",
                json{{"uri", *uri}, {"event", event_kind_name(event.kind)}, {"data", event.data}});
}

}  // namespace mcpud::dialects
