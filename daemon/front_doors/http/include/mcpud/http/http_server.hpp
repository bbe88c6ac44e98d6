// SPDX-License-Identifier: MIT
// MCP Streamable HTTP with Boost.Beast. Legacy (2025-03-26 ... 2025-11-25):
// POST /mcp answers with JSON or SSE, GET /mcp is the session's notification
// stream, DELETE ends the session. 2026-07-28 (an MCP-Protocol-Version that is
// no legacy version): one POST, one request, no session (modern_http.hpp); Mcp-Session-Id, Host and Origin checking,
// optional bearer token, bounded bodies, connections, sessions and stream queues. Event loop only.
#pragma once

#include <cstddef>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/safety_control.hpp"
#include "mcpud/io/tls_server.hpp"

namespace mcpud::http {

// Filled by the daemon from [http] and [limits], whose defaults are the
// configuration schema's.
struct HttpOptions {
  std::string listen;                          // "127.0.0.1:8080"
  std::string token;                           // bearer token; "" accepts all
  std::vector<std::string> allowed_origins;    // besides loopback origins
  std::vector<std::string> allowed_hosts;      // Host names besides loopback ones (docs/mcp.md)
  std::vector<std::string> protocol_versions;  // legacy MCP-Protocol-Version values (the session path)
  std::size_t max_sessions{};
  std::size_t max_body_bytes{};
  std::size_t max_sessions_per_address{};  // MCP sessions one address (IPv6: one /64) may hold
  std::size_t max_connections{};
  std::size_t max_connections_per_address{};
  // Notifications waiting for a slow stream reader; also what one POST's reply may take.
  std::size_t queue_bytes{};
  // Modern versions (2026-07-28): a POST naming one takes the session-free path.
  std::vector<std::string> modern_protocol_versions;
  // The dashboard's safety controls (/api/safety): their own secret ("" turns
  // them off) and what they act on (borrowed; null: not running).
  std::string dashboard_token;
  SafetyControl* safety = nullptr;
  // HTTPS: the listener's TLS (shared with the daemon, which reloads its
  // certificate on SIGHUP); null: plain HTTP.
  std::shared_ptr<io::TlsServer> tls;

  bool operator==(const HttpOptions&) const = default;
};

// Checks [http] allowed_hosts; the error names the first entry that is not a
// host name with an optional :port ("http.allowed_hosts[1]: ...").
std::expected<void, std::string> check_allowed_hosts(const std::vector<std::string>& hosts);

class HttpConnection;

class HttpServer {
 public:
  HttpServer(boost::asio::io_context& io, HttpOptions options, rpc::Engine& engine);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and starts accepting; the error names the address and why.
  std::expected<void, std::string> open();
  // Stops accepting, ends every session and closes every connection.
  void close();

  const HttpOptions& options() const;
  // New options for the same listen address (a reload): sessions and
  // connections stay; the next request is judged by them.
  std::expected<void, std::string> update(HttpOptions options);
  // The bound address, with the real port when the spec asked for port 0.
  std::string local_address() const;
  // Visits every live MCP session (for the daemon's status).
  void for_each_session(const std::function<void(const rpc::Client&)>& visit) const;
  // What on_change reports: an MCP session began or ended (the daemon's status
  // shows sessions), or a connection closed (its buffers are free).
  enum class Change { sessions, connection_closed };
  void on_change(std::function<void(Change)> changed);

 private:
  friend class HttpConnection;

 public:
  struct State;  // shared with connections, which may outlive the server

 private:
  std::shared_ptr<State> state_;
};

}  // namespace mcpud::http
