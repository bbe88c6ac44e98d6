// SPDX-License-Identifier: MIT
// Per-client dialect state and the one subscription mechanism: events on the
// EventHub become JSON-RPC notifications pushed to the clients that asked for
// them, whichever dialect (MCP or MCP/U) and transport they use.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"

namespace mcpud::dialects {

// MCP log levels, least severe first (RFC 5424 names).
enum class McpLogLevel { Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency };
std::optional<McpLogLevel> parse_mcp_log_level(std::string_view name);
std::string_view mcp_log_level_name(McpLogLevel level);

// The _meta key that ties a notification to its subscriptions/listen stream.
inline constexpr std::string_view kMetaSubscriptionId = "io.modelcontextprotocol/subscriptionId";

// One subscriptions/listen stream (MCP 2026-07-28): what it asked for and mcpud
// honours. It lives while its request waits, which ends it only when cancelled.
struct Listen {
  nlohmann::json id;  // the listen request's id: every notification's subscriptionId
  bool tools = false;
  bool resources = false;
  std::set<std::string, std::less<>> uris;
};

// What the daemon remembers about one client. Destroyed with the client, which
// ends its EventHub subscription.
struct ClientSession final : rpc::ClientState {
  std::string protocol_version;  // the MCP version negotiated
  McpLogLevel log_level = McpLogLevel::Warning;
  std::set<std::string, std::less<>> uris;  // resources subscribed to
  EventHub::Subscription events;
  EventHub* hub = nullptr;                    // where `interests` are held
  std::vector<EventHub::Interest> interests;  // in the costly kinds the URIs need

  // Subscribes or unsubscribes; a client holds at most kMaxSubscriptions (each
  // costs memory and a check per event), beyond which subscribing fails.
  Result<void> set_subscribed(const std::string& uri, bool on) {
    if (!on) {
      uris.erase(uri);
      declare_interests();
      return {};
    }
    if (uris.size() >= kMaxSubscriptions && !uris.contains(uri)) {
      return std::unexpected(Error::invalid_params("too many subscriptions on this connection (at most " +
                                                   std::to_string(kMaxSubscriptions) + "); unsubscribe some first"));
    }
    uris.insert(uri);
    declare_interests();
    return {};
  }
  // The client's listen streams, by their request id (serialized). A client
  // holds at most kMaxListens, and at most kMaxSubscriptions URIs in all.
  std::map<std::string, Listen, std::less<>> listens;
  Result<void> add_listen(std::string key, Listen listen);
  void end_listen(std::string_view key) {
    if (listens.erase(std::string(key)) != 0) declare_interests();
  }
  // Tells a listen's cancellation whether the session it would end still exists.
  std::shared_ptr<int> alive = std::make_shared<int>();

  // Holds an EventHub interest in every kind of event the subscribed URIs name.
  void declare_interests();
  static constexpr std::size_t kMaxSubscriptions = 256;
  static constexpr std::size_t kMaxListens = 16;
};

// The client's session, created (and subscribed to `hub`) on first use.
ClientSession& client_session(rpc::Client& client, EventHub& hub);

// The resource URI an event updates ("mcpu://pins/led", "mcpu://serial/3",
// "mcpu://tools/<name>", "mcpu://samples/<pin>", "mcpu://daemon/activity",
// "mcpu://daemon/log", "mcpu://daemon/status"), or nothing for events that are not about a resource.
std::optional<std::string> event_uri(const Event& event);

// Checks a URI a client wants to subscribe to (one event_uri can give). The
// error names the field.
Result<void> check_subscribable(std::string_view uri, std::string_view field);

// Delivers one event to one client as its subscriptions and level ask.
void deliver(rpc::Client& client, const ClientSession& session, const Event& event);

}  // namespace mcpud::dialects
