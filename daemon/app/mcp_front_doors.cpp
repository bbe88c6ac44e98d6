// SPDX-License-Identifier: MIT
// Standard MCP wiring: dialect, unix socket, Streamable HTTP, stdio.
#include "app/mcp_front_doors.hpp"

#include <boost/asio/steady_timer.hpp>

#include "app/daemon_resources.hpp"
#include "config/mcp_config.hpp"
#include "dialects/client_session.hpp"
#include "dialects/mcp_dialect.hpp"
#include "dialects/mcpu_subscribe.hpp"
#include "mcpud/core/log.hpp"
#include "tools/pin_resources.hpp"
#include "tools/pin_table.hpp"
#include "transports/http_server.hpp"
#include "transports/stdio_session.hpp"
#include "transports/unix_listener.hpp"

namespace mcpud::app {
namespace {

// How long a tools/list at start waits for configured bridges to be discovered.
constexpr auto kBridgeSettleTime = std::chrono::seconds(2);

}  // namespace

McpFrontDoors::McpFrontDoors(Context context, McpOptions options)
    : ctx_(std::move(context)), options_(std::move(options)) {}
McpFrontDoors::~McpFrontDoors() = default;

void McpFrontDoors::install() {
  const auto& config = ctx_.config;
  dialects::McpServer server{
      [&config] { return config.device; },
      ctx_.version,
      [&config] { return config.mcp.mcp.page_bytes; },
      [&config](const Tool& tool) { return config::is_user_only(tool, config.mcp.mcp); },
      [this] { return list_resources(); },
      [this](std::string_view uri) { return read_resource(uri); },
      [this](std::string_view uri) { return resource_exists(uri); },
      [this](std::function<void()> then) { when_tools_settled(std::move(then)); }};
  settle_deadline_ = std::chrono::steady_clock::now() + kBridgeSettleTime;
  dialects::install_mcp_dialect(ctx_.dispatcher, ctx_.events, std::move(server));
  dialects::install_mcpu_subscribe(ctx_.dispatcher, ctx_.events);
}

nlohmann::json McpFrontDoors::list_resources() const {
  auto out = tools::list_pin_resources(ctx_.pins());
  if (ctx_.daemon) {
    const auto daemon = ctx_.daemon->list();
    out.insert(out.end(), daemon.begin(), daemon.end());
  }
  return out;
}

Result<nlohmann::json> McpFrontDoors::read_resource(std::string_view uri) const {
  if (ctx_.daemon && uri.starts_with(kDaemonUriPrefix)) return ctx_.daemon->read(uri);
  return tools::read_pin_resource(ctx_.pins(), uri);
}

nlohmann::json McpFrontDoors::listeners() const {
  auto out = nlohmann::json::array();
  if (unix_listener_) out.push_back({{"kind", "unix"}, {"address", unix_listener_->options().path}});
  if (http_) {
    const auto address = http_->local_address();
    out.push_back({{"kind", "http"}, {"address", address}, {"url", "http://" + address + "/mcp"}});
  }
  return out;
}

nlohmann::json McpFrontDoors::http_clients() const {
  auto out = nlohmann::json::array();
  if (http_) {
    http_->for_each_session([&](const rpc::Client& client) {
      const auto caller = dialects::caller_of(client);
      out.push_back({{"door", caller.door}, {"client", caller.client}});
    });
  }
  return out;
}

bool McpFrontDoors::resource_exists(std::string_view uri) const {
  constexpr std::string_view kSerial = "mcpu://serial/", kTools = "mcpu://tools/", kSamples = "mcpu://samples/";
  if (ctx_.daemon && ctx_.daemon->has(uri)) return true;
  if (uri.starts_with(kSamples)) {
    const auto* pin = ctx_.pins().find(uri.substr(kSamples.size()));
    return pin && pin->sampler;
  }
  if (uri.starts_with(kSerial))
    return ctx_.serial_session_exists && ctx_.serial_session_exists(uri.substr(kSerial.size()));
  if (uri.starts_with(kTools)) return ctx_.dispatcher.registry().find(uri.substr(kTools.size())) != nullptr;
  return tools::read_pin_resource(ctx_.pins(), uri).has_value();
}

void McpFrontDoors::when_tools_settled(std::function<void()> then) {
  const bool settled = !ctx_.bridges_settled || ctx_.bridges_settled();
  if (settled || std::chrono::steady_clock::now() >= settle_deadline_) return then();
  // Only in the first seconds after start, and only while a client waits: a short poll is simplest.
  auto timer = std::make_shared<boost::asio::steady_timer>(ctx_.io, std::chrono::milliseconds(20));
  timer->async_wait([this, timer, then = std::move(then)](boost::system::error_code ec) mutable {
    if (ec) return then();  // shutting down: answer with what there is
    when_tools_settled(std::move(then));
  });
}

bool McpFrontDoors::reconcile(std::function<void()> on_stdio_closed) {
  if (options_.stdio) {
    if (!stdio_started_) {
      stdio_started_ = true;
      transports::serve_stdio(ctx_.io, ctx_.engine, ctx_.sessions, ctx_.limits, std::move(on_stdio_closed));
    }
    return true;  // a stdio server opens no listeners: it may run beside a system daemon
  }
  const bool unix_ok = reconcile_unix_socket();
  return reconcile_http() && unix_ok;
}

bool McpFrontDoors::reconcile_http() {
  const auto& http = ctx_.config.mcp.http;
  transports::HttpOptions wanted{options_.http.value_or(http.listen),
                                 http.token,
                                 http.allowed_origins,
                                 {},
                                 http.max_sessions,
                                 http.max_body_bytes,
                                 ctx_.limits.max_clients,
                                 ctx_.limits.queue_bytes};
  for (const auto version : dialects::kMcpVersions) wanted.protocol_versions.emplace_back(version);
  if (http_ && http_->options() == wanted) return true;
  http_.reset();  // closes its sessions and connections
  if (wanted.listen.empty()) return true;
  auto server = std::make_unique<transports::HttpServer>(ctx_.io, std::move(wanted), ctx_.engine);
  if (auto opened = server->open(); !opened) {
    log::error("http", opened.error());
    return false;
  }
  http_ = std::move(server);
  return true;
}

bool McpFrontDoors::reconcile_unix_socket() {
  auto wanted = ctx_.config.mcp.unix_socket;
  if (options_.unix_socket) {
    wanted.path = *options_.unix_socket;
    wanted.path_given = true;
  }
  const transports::UnixSocketOptions socket{wanted.path, wanted.group, wanted.mode};
  if (unix_listener_) {
    const auto& open = unix_listener_->options();
    if (open.path == socket.path && open.group == socket.group && open.mode == socket.mode) return true;
    unix_listener_->close();
    unix_listener_.reset();
  }
  if (socket.path.empty()) return true;
  auto listener = std::make_unique<transports::UnixListener>(ctx_.io, socket, ctx_.engine, ctx_.sessions, ctx_.limits);
  if (auto opened = listener->open(); !opened) {
    // The default path needs /run/mcpud (made by the service); without it the daemon still serves TCP.
    if (!wanted.path_given) {
      log::warn("unix", opened.error(), "; unix socket disabled (set unix_socket.path or --unix)");
      return true;
    }
    log::error("unix", opened.error());
    return false;
  }
  unix_listener_ = std::move(listener);
  return true;
}

void McpFrontDoors::close() {
  if (unix_listener_) unix_listener_->close();
  if (http_) http_->close();
}

}  // namespace mcpud::app
