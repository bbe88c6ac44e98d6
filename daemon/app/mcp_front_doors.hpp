// SPDX-License-Identifier: MIT
// Wires standard MCP into the daemon: the MCP dialect and MCP/U subscriptions on
// the dispatcher, the unix socket listener, Streamable HTTP and the stdio client.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>

#include "app/mcp_options.hpp"
#include "config/config.hpp"
#include "dialects/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"
#include "transports/session.hpp"

namespace mcpud::tools {
class PinTable;
}

namespace mcpud::transports {
class UnixListener;
class HttpServer;
}  // namespace mcpud::transports

namespace mcpud::app {

class DaemonResources;

class McpFrontDoors {
 public:
  struct Context {
    boost::asio::io_context& io;
    dialects::Dispatcher& dispatcher;
    rpc::Engine& engine;
    EventHub& events;
    transports::SessionSet& sessions;
    const transports::SessionLimits& limits;
    const config::Config& config;            // the running configuration
    std::function<tools::PinTable&()> pins;  // the current pin table
    std::string version;
    std::function<bool(std::string_view session_id)> serial_session_exists;
    std::function<bool()> bridges_settled;  // every configured bridge finished its first discovery
    const DaemonResources* daemon = nullptr;  // mcpu://daemon/... resources, when offered
  };

  McpFrontDoors(Context context, McpOptions options);
  ~McpFrontDoors();

  // Adds the MCP methods and the MCP/U subscribe methods to the dispatcher.
  void install();
  // Opens what the configuration (and options) ask for; after a reload, reopens
  // what changed. False when an explicitly configured door cannot open.
  bool reconcile(std::function<void()> on_stdio_closed);
  void close();
  // Whether the pin, serial session or tool a resource URI names exists.
  bool resource_exists(std::string_view uri) const;
  // The unix socket and HTTP listeners: [{kind, address, url?}].
  nlohmann::json listeners() const;
  // The MCP sessions over HTTP: [{door, client}].
  nlohmann::json http_clients() const;
  bool token_required() const { return !ctx_.config.mcp.http.token.empty(); }
  // Runs `then` once the bridges have settled, or at once when 2 s have passed since install().
  void when_tools_settled(std::function<void()> then);

 private:
  nlohmann::json list_resources() const;
  Result<nlohmann::json> read_resource(std::string_view uri) const;
  bool reconcile_unix_socket();
  bool reconcile_http();

  Context ctx_;
  McpOptions options_;
  std::unique_ptr<transports::UnixListener> unix_listener_;
  std::unique_ptr<transports::HttpServer> http_;
  bool stdio_started_ = false;
  // Until then a tools/list waits for the bridges' first discovery.
  std::chrono::steady_clock::time_point settle_deadline_;
};

}  // namespace mcpud::app
