// SPDX-License-Identifier: MIT
// The uplinks: front doors that dial out to AI services and brokers and serve the
// one tool registry in those services' protocols. Started, changed and stopped
// with the configuration. Event loop only.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/uplinks/uplink_config.hpp"

namespace mcpud::uplinks {

class FleetUplink;
class ServicesUplink;
class AssistantUplink;

class UplinkSet {
 public:
  // What one request and one reply may take, as [limits] says for every client.
  struct ClientLimits {
    std::size_t max_request_bytes{};  // max_line_bytes
    std::size_t max_reply_bytes{};    // client_queue_bytes: a batch's replies together
  };

  struct Context {
    boost::asio::io_context& io;
    ToolRegistry& registry;
    rpc::Dispatcher& dispatcher;  // MCP and MCP/U methods, for uplinks that carry JSON-RPC
    rpc::Engine& engine;
    EventHub& events;
    const UplinkConfig& config;                   // the running configuration's [uplink]
    std::function<std::string()> device;          // the device name, for fleet topics
    std::function<ClientLimits()> client_limits;  // the line transports' bounds, which the fleet keeps too
    std::string version;
  };

  explicit UplinkSet(Context context);
  ~UplinkSet();

  // Starts the uplinks the running configuration names; after a reload, restarts
  // those whose settings changed and stops those no longer configured.
  void reconcile();
  // Says goodbye where the protocol has a way to, and closes every connection.
  void close();
  // A user turn through the services uplink (`mcpuctl ask`); UPLINK_NOT_CONFIGURED
  // or UPLINK_NOT_CONNECTED when it cannot be carried.
  void ask(const std::string& text, std::function<void(Result<std::string>)> reply);
  // Connected uplinks as (transport, peer) rows for ListClients: ("services", "10.0.0.5:8443"),
  // ("fleet", "10.0.0.9:1883 mcpud/<device>").
  std::vector<std::pair<std::string, std::string>> clients() const;
  // Every configured uplink: [{kind, server, connected}] (the assistant's with its own status).
  nlohmann::json status() const;

 private:
  void reconcile_services();
  void reconcile_fleet();

  Context ctx_;
  std::shared_ptr<ServicesUplink> services_;
  std::shared_ptr<FleetUplink> fleet_;
  FleetUplinkConfig fleet_config_;  // what fleet_ runs with
  std::string fleet_device_;
  std::unique_ptr<AssistantUplink> assistant_;  // [uplink.assistant]
};

}  // namespace mcpud::uplinks
