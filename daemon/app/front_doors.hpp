// SPDX-License-Identifier: MIT
// The front doors that listen, kept as the configuration says: TCP addresses,
// ttys (the serial gadget), the unix socket, Streamable HTTP and the stdio
// client; and the dialect methods they serve beyond MCP/U (MCP, subscriptions).
// Event loop only.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <expected>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "config.hpp"
#include "heap_trimmer.hpp"
#include "mcp_options.hpp"
#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/safety_control.hpp"
#include "mcpud/transports/session.hpp"
#include "tls_servers.hpp"

namespace mcpud::pins {
class PinTable;
class SensorReads;
}  // namespace mcpud::pins

namespace mcpud::transports {
class TcpListener;
class TtyListener;
class UnixListener;
struct UnixSocketOptions;
}  // namespace mcpud::transports

namespace mcpud::http {
class HttpServer;
struct HttpOptions;
}  // namespace mcpud::http

namespace mcpud::app {

class DaemonResources;

class FrontDoors {
 public:
  struct Context {
    boost::asio::io_context& io;
    rpc::Dispatcher& dispatcher;
    rpc::Engine& engine;
    EventHub& events;
    transports::SessionSet& sessions;
    HeapTrimmer& heap_trimmer;  // told when HTTP clients leave, as `sessions` tells it of line clients
    const transports::SessionLimits& limits;
    const config::Config& config;                // the running configuration
    std::function<pins::PinTable&()> pin_table;  // the current pin table
    pins::SensorReads& sensor_reads;             // reads the pin resources' sensors
    std::string version;
    // A serial session of that id exists, and `caller` may use it.
    std::function<bool(std::string_view session_id, const Caller& caller)> serial_session_exists;
    std::function<bool()> bridges_settled;    // every configured bridge finished its first discovery
    const DaemonResources* daemon = nullptr;  // mcpu://daemon/... resources, when offered
    SafetyControl* safety = nullptr;          // the dashboard's safety controls act on it
  };

  FrontDoors(Context context, McpOptions options);
  ~FrontDoors();

  // Adds the MCP methods and the MCP/U subscribe methods to the dispatcher.
  void install();
  // Opens what the configuration (and options) ask for, closes what it no longer
  // does; unchanged doors (and their clients) stay up. False when an explicitly
  // configured door cannot open. `on_stdio_closed` runs when the stdio client
  // ends (`failed`: its replies could not be written).
  bool reconcile(std::function<void(bool failed)> on_stdio_closed);
  // Before a reload: opens the listeners `next` adds (TCP addresses, an HTTP
  // address, a unix socket path) beside the running ones, so that a reload
  // whose listener cannot open is refused with everything still running. The
  // next reconcile() adopts them; abandon_prepared() closes them.
  std::expected<void, std::string> prepare(const config::Config& next);
  void abandon_prepared();
  // Stops listening; connected clients stay (the SessionSet owns them).
  void close();
  // Whether the pin, serial session or tool a resource URI names exists (a
  // serial session: for a caller that may use it).
  bool resource_exists(std::string_view uri, const Caller& caller) const;
  // Every listener: [{kind: tcp|tty|unix|http, address, url (http)}].
  nlohmann::json listeners() const;
  // The MCP sessions over HTTP: [{door, client}].
  nlohmann::json http_clients() const;
  bool token_required() const { return !ctx_.config.mcp.http.token.empty(); }
  // Runs `then` once the bridges have settled, or at once when 2 s have passed since install().
  void when_tools_settled(std::move_only_function<void()> then);

 private:
  // The TCP listeners of one kind: plain (listen) or TLS (listen_tls).
  struct TcpListeners {
    std::vector<std::unique_ptr<transports::TcpListener>> running;
    std::vector<std::unique_ptr<transports::TcpListener>> prepared;  // by prepare(), for the next reconcile()
  };
  bool reconcile_tcp(TcpListeners& listeners, const std::vector<std::string>& specs,
                     const std::shared_ptr<io::TlsServer>& tls);
  std::expected<void, std::string> prepare_tcp(TcpListeners& listeners, const std::vector<std::string>& specs,
                                               const std::shared_ptr<io::TlsServer>& tls);
  // The TLS server of `files`, or null (with the error logged) when it cannot be had.
  std::shared_ptr<io::TlsServer> tls_server(const io::TlsFiles& files);
  void reconcile_ttys();
  nlohmann::json list_resources() const;
  void read_resource(std::string_view uri, ToolReply reply) const;
  bool reconcile_unix_socket();
  bool reconcile_http();
  http::HttpOptions http_options(const config::Config& config);
  transports::UnixSocketOptions unix_socket_options(const config::Config& config) const;
  std::unique_ptr<transports::TcpListener> make_tcp_listener(const std::string& spec,
                                                             std::shared_ptr<io::TlsServer> tls) const;

  Context ctx_;
  McpOptions options_;
  TcpListeners tcp_;
  TcpListeners tls_tcp_;
  TlsServers tls_servers_;
  std::vector<std::unique_ptr<transports::TtyListener>> tty_listeners_;
  std::unique_ptr<transports::UnixListener> unix_listener_;
  std::unique_ptr<http::HttpServer> http_;
  // Opened by prepare() for the next reconcile().
  std::unique_ptr<transports::UnixListener> prepared_unix_;
  std::unique_ptr<http::HttpServer> prepared_http_;
  bool stdio_started_ = false;
  // Until then a tools/list waits for the bridges' first discovery.
  std::chrono::steady_clock::time_point settle_deadline_;
};

}  // namespace mcpud::app
