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

#include "config/config.hpp"
#include "dialects/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "transports/session.hpp"

namespace mcpud::uplinks {
class FleetUplink;
class ServicesUplink;
class AssistantUplink;
}  // namespace mcpud::uplinks

namespace mcpud::app {

class Uplinks {
 public:
  struct Context {
    boost::asio::io_context& io;
    ToolRegistry& registry;
    dialects::Dispatcher& dispatcher;  // MCP and MCP/U methods, for uplinks that carry JSON-RPC
    rpc::Engine& engine;
    EventHub& events;
    const transports::SessionLimits& limits;
    const config::Config& config;  // the running configuration
    std::string version;
  };

  explicit Uplinks(Context context);
  ~Uplinks();

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
  std::shared_ptr<uplinks::ServicesUplink> services_;
  std::shared_ptr<uplinks::FleetUplink> fleet_;
  config::FleetUplinkConfig fleet_config_;  // what fleet_ runs with
  std::string fleet_device_;
  std::unique_ptr<uplinks::AssistantUplink> assistant_;  // [uplink.assistant]
};

}  // namespace mcpud::app
