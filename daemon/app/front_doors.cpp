// SPDX-License-Identifier: MIT
// The listening front doors and the MCP dialect's wiring.
#include "front_doors.hpp"

#include <filesystem>

#include <boost/asio/steady_timer.hpp>

#include "daemon_resources.hpp"
#include "mcp_config.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/dialects/mcp_dialect.hpp"
#include "mcpud/dialects/mcpu_subscribe.hpp"
#include "mcpud/http/http_server.hpp"
#include "mcpud/pins/pin_resources.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/transports/stdio_session.hpp"
#include "mcpud/transports/tcp_listener.hpp"
#include "mcpud/transports/tty_listener.hpp"
#include "mcpud/transports/unix_listener.hpp"

namespace mcpud::app {
namespace {

// How long a tools/list at start waits for configured bridges to be discovered.
constexpr auto kBridgeSettleTime = std::chrono::seconds(2);

// Keeps one listener per wanted spec: closes those no longer wanted and opens
// (with `open`, which may fail and return null) those not running yet.
template <class Listener, class Open>
void keep_only(std::vector<std::unique_ptr<Listener>>& running, const std::vector<std::string>& wanted, Open open) {
  std::erase_if(running, [&](const auto& listener) {
    const bool gone = std::find(wanted.begin(), wanted.end(), listener->spec()) == wanted.end();
    if (gone) listener->close();
    return gone;
  });
  for (const auto& spec : wanted) {
    const auto same = [&](const auto& listener) { return listener->spec() == spec; };
    if (std::any_of(running.begin(), running.end(), same)) continue;
    if (auto listener = open(spec)) running.push_back(std::move(listener));
  }
}

}  // namespace

FrontDoors::FrontDoors(Context context, McpOptions options) : ctx_(std::move(context)), options_(std::move(options)) {}
FrontDoors::~FrontDoors() = default;

void FrontDoors::install() {
  const auto& config = ctx_.config;
  dialects::McpServer server{
      [&config] { return config.device; },
      ctx_.version,
      [&config] { return config.mcp.mcp.page_bytes; },
      [this] { return list_resources(); },
      [this](std::string_view uri, ToolReply reply) { read_resource(uri, std::move(reply)); },
      [this](std::string_view uri, const Caller& caller) { return resource_exists(uri, caller); },
      [this](std::move_only_function<void()> then) { when_tools_settled(std::move(then)); }};
  settle_deadline_ = std::chrono::steady_clock::now() + kBridgeSettleTime;
  dialects::install_mcp_dialect(ctx_.dispatcher, ctx_.events, std::move(server));
  dialects::install_mcpu_subscribe(ctx_.dispatcher, ctx_.events, [this](std::string_view uri, const Caller& caller) {
    return resource_exists(uri, caller);
  });
}

nlohmann::json FrontDoors::list_resources() const {
  auto out = pins::list_pin_resources(ctx_.pin_table());
  if (ctx_.daemon) {
    const auto daemon = ctx_.daemon->list();
    out.insert(out.end(), daemon.begin(), daemon.end());
  }
  return out;
}

void FrontDoors::read_resource(std::string_view uri, ToolReply reply) const {
  if (ctx_.daemon && uri.starts_with(kDaemonUriPrefix)) return reply(ctx_.daemon->read(uri));
  pins::read_pin_resource(ctx_.pin_table(), ctx_.sensor_reads, uri, std::move(reply));
}

nlohmann::json FrontDoors::listeners() const {
  auto out = nlohmann::json::array();
  for (const auto& l : tcp_.running) out.push_back({{"kind", "tcp"}, {"address", l->local_address()}});
  for (const auto& l : tls_tcp_.running) out.push_back({{"kind", "tls"}, {"address", l->local_address()}});
  for (const auto& l : tty_listeners_) out.push_back({{"kind", "tty"}, {"address", l->spec()}});
  if (unix_listener_) out.push_back({{"kind", "unix"}, {"address", unix_listener_->options().path}});
  if (http_) {
    const auto address = http_->local_address();
    const char* scheme = http_->options().tls ? "https://" : "http://";
    out.push_back({{"kind", "http"}, {"address", address}, {"url", scheme + address + "/mcp"}});
  }
  return out;
}

nlohmann::json FrontDoors::http_clients() const {
  auto out = nlohmann::json::array();
  if (http_) {
    http_->for_each_session([&](const rpc::Client& client) {
      out.push_back({{"door", client.caller.door}, {"client", client.caller.label()}});
    });
  }
  return out;
}

bool FrontDoors::resource_exists(std::string_view uri, const Caller& caller) const {
  constexpr std::string_view kSerial = "mcpu://serial/", kTools = "mcpu://tools/", kSamples = "mcpu://samples/";
  if (ctx_.daemon && ctx_.daemon->has(uri)) return true;
  if (uri.starts_with(kSamples)) {
    const auto* pin = ctx_.pin_table().find(uri.substr(kSamples.size()));
    return pin && pin->sampler;
  }
  if (uri.starts_with(kSerial))
    return ctx_.serial_session_exists && ctx_.serial_session_exists(uri.substr(kSerial.size()), caller);
  if (uri.starts_with(kTools)) return ctx_.dispatcher.registry().find(uri.substr(kTools.size())) != nullptr;
  return pins::pin_resource_exists(ctx_.pin_table(), uri);
}

void FrontDoors::when_tools_settled(std::move_only_function<void()> then) {
  const bool settled = !ctx_.bridges_settled || ctx_.bridges_settled();
  if (settled || std::chrono::steady_clock::now() >= settle_deadline_) return then();
  // Only in the first seconds after start, and only while a client waits: a short poll is simplest.
  auto timer = std::make_shared<boost::asio::steady_timer>(ctx_.io, std::chrono::milliseconds(20));
  timer->async_wait([this, timer, then = std::move(then)](boost::system::error_code ec) mutable {
    if (ec) return then();  // shutting down: answer with what there is
    when_tools_settled(std::move(then));
  });
}

bool FrontDoors::reconcile(std::function<void(bool failed)> on_stdio_closed) {
  if (options_.stdio) {
    if (!stdio_started_) {
      stdio_started_ = true;
      transports::serve_stdio(ctx_.io, ctx_.engine, ctx_.sessions, ctx_.limits, std::move(on_stdio_closed));
    }
    return true;  // a stdio server opens no listeners: it may run beside a system daemon
  }
  const bool tcp_ok = reconcile_tcp(tcp_, ctx_.config.listen, nullptr);
  bool tls_ok = true;
  if (ctx_.config.listen_tls.empty()) {
    reconcile_tcp(tls_tcp_, {}, nullptr);
  } else if (auto tls = tls_server(ctx_.config.tls)) {
    tls_ok = reconcile_tcp(tls_tcp_, ctx_.config.listen_tls, tls);
  } else {
    tls_ok = false;
  }
  reconcile_ttys();  // a tty that is not there yet is waited for, not an error
  const bool unix_ok = reconcile_unix_socket();
  const bool http_ok = reconcile_http();
  tls_servers_.forget_unused();
  return http_ok && unix_ok && tcp_ok && tls_ok;
}

std::expected<void, std::string> FrontDoors::prepare(const config::Config& next) {
  abandon_prepared();
  if (options_.stdio) return {};
  const auto fail = [this](std::string why) {
    abandon_prepared();
    return std::unexpected(std::move(why));
  };
  auto tls_wanted = std::vector<io::TlsFiles>{};
  if (!next.listen_tls.empty()) tls_wanted.push_back(next.tls);
  if (!next.mcp.http.tls.certificate.empty()) tls_wanted.push_back(next.mcp.http.tls);
  if (auto tls = tls_servers_.prepare(tls_wanted); !tls) return fail(tls.error());
  if (auto tcp = prepare_tcp(tcp_, next.listen, nullptr); !tcp) return fail(tcp.error());
  if (!next.listen_tls.empty()) {
    if (auto tls = prepare_tcp(tls_tcp_, next.listen_tls, *tls_servers_.get(next.tls)); !tls) return fail(tls.error());
  }
  const auto socket = unix_socket_options(next);
  if (!socket.path.empty() && (!unix_listener_ || unix_listener_->options().path != socket.path)) {
    auto listener =
        std::make_unique<transports::UnixListener>(ctx_.io, socket, ctx_.engine, ctx_.sessions, ctx_.limits);
    // The default path may be missing (no /run/mcpud): reconcile() says so then, as at start.
    if (auto opened = listener->open(); opened) {
      prepared_unix_ = std::move(listener);
    } else if (options_.unix_socket || next.mcp.unix_socket.path_given) {
      return fail(opened.error());
    }
  }
  auto http = http_options(next);
  if (!http.listen.empty() && (!http_ || http_->options().listen != http.listen)) {
    auto server = std::make_unique<http::HttpServer>(ctx_.io, std::move(http), ctx_.engine);
    if (auto opened = server->open(); !opened) return fail(opened.error());
    prepared_http_ = std::move(server);
  }
  return {};
}

void FrontDoors::abandon_prepared() {
  for (auto* listeners : {&tcp_, &tls_tcp_}) {
    for (auto& listener : listeners->prepared) listener->close();
    listeners->prepared.clear();
  }
  if (prepared_unix_) prepared_unix_->close();
  prepared_unix_.reset();
  prepared_http_.reset();  // closes it
  tls_servers_.forget_unused();
}

std::unique_ptr<transports::TcpListener> FrontDoors::make_tcp_listener(const std::string& spec,
                                                                       std::shared_ptr<io::TlsServer> tls) const {
  return std::make_unique<transports::TcpListener>(ctx_.io, spec, ctx_.engine, ctx_.sessions, ctx_.limits,
                                                   std::move(tls));
}

std::expected<void, std::string> FrontDoors::prepare_tcp(TcpListeners& listeners, const std::vector<std::string>& specs,
                                                         const std::shared_ptr<io::TlsServer>& tls) {
  for (const auto& spec : specs) {
    const auto same = [&](const auto& listener) { return listener->spec() == spec; };
    if (std::ranges::any_of(listeners.running, same) || std::ranges::any_of(listeners.prepared, same)) continue;
    auto listener = make_tcp_listener(spec, tls);
    if (auto opened = listener->open(); !opened) return std::unexpected(opened.error());
    listeners.prepared.push_back(std::move(listener));
  }
  return {};
}

std::shared_ptr<io::TlsServer> FrontDoors::tls_server(const io::TlsFiles& files) {
  auto server = tls_servers_.get(files);
  if (server) return std::move(*server);
  log::error("tls", server.error());
  return nullptr;
}

bool FrontDoors::reconcile_tcp(TcpListeners& listeners, const std::vector<std::string>& specs,
                               const std::shared_ptr<io::TlsServer>& tls) {
  bool ok = true;
  keep_only(listeners.running, specs, [&](const std::string& spec) {
    const auto prepared =
        std::ranges::find_if(listeners.prepared, [&](const auto& listener) { return listener->spec() == spec; });
    if (prepared != listeners.prepared.end()) {
      auto listener = std::move(*prepared);
      listeners.prepared.erase(prepared);
      return listener;
    }
    auto listener = make_tcp_listener(spec, tls);
    if (auto opened = listener->open(); !opened) {
      log::error("tcp", opened.error());
      ok = false;
      listener.reset();
    }
    return listener;
  });
  // Listeners kept take the certificate the configuration names now.
  for (auto& listener : listeners.running) listener->use_tls(tls);
  return ok;
}

void FrontDoors::reconcile_ttys() {
  std::vector<std::string> wanted;
  wanted.reserve(ctx_.config.ttys.size());
  for (const auto& tty : ctx_.config.ttys) wanted.push_back(tty.path + ":" + std::to_string(tty.baud));
  keep_only(tty_listeners_, wanted, [&](const std::string& spec) {
    const auto& tty = ctx_.config.ttys[std::find(wanted.begin(), wanted.end(), spec) - wanted.begin()];
    auto listener =
        std::make_unique<transports::TtyListener>(ctx_.io, tty.path, tty.baud, ctx_.engine, ctx_.sessions, ctx_.limits);
    listener->start();
    return listener;
  });
}

http::HttpOptions FrontDoors::http_options(const config::Config& config) {
  const auto& http = config.mcp.http;
  http::HttpOptions wanted{options_.http.value_or(http.listen),
                           http.token,
                           http.allowed_origins,
                           http.allowed_hosts,
                           {},
                           http.max_sessions,
                           http.max_body_bytes,
                           http.max_sessions_per_address,
                           ctx_.limits.max_clients,
                           ctx_.limits.max_clients_per_address,
                           ctx_.limits.queue_bytes};
  for (const auto version : dialects::kMcpVersions) wanted.protocol_versions.emplace_back(version);
  for (const auto version : dialects::kModernMcpVersions) wanted.modern_protocol_versions.emplace_back(version);
  wanted.dashboard_token = http.dashboard_token;
  wanted.safety = ctx_.safety;
  if (!http.tls.certificate.empty()) wanted.tls = tls_server(http.tls);
  return wanted;
}

bool FrontDoors::reconcile_http() {
  auto wanted = http_options(ctx_.config);
  if (!ctx_.config.mcp.http.tls.certificate.empty() && !wanted.tls) return false;  // never plain HTTP in its place
  auto server = std::move(prepared_http_);
  if (!server && http_ && http_->options().listen == wanted.listen) {
    if (http_->options() == wanted) return true;
    // Same address: the sessions and connections stay, under the new options.
    if (auto updated = http_->update(std::move(wanted)); !updated) {
      log::error("http", updated.error());
      return false;
    }
    return true;
  }
  http_.reset();  // closes its sessions and connections
  if (!server) {
    if (wanted.listen.empty()) return true;
    server = std::make_unique<http::HttpServer>(ctx_.io, std::move(wanted), ctx_.engine);
    if (auto opened = server->open(); !opened) {
      log::error("http", opened.error());
      return false;
    }
  }
  server->on_change([&events = ctx_.events, &trimmer = ctx_.heap_trimmer](http::HttpServer::Change change) {
    if (change == http::HttpServer::Change::sessions) events.touch_status("clients");
    trimmer.note_activity();  // a session or a stream that ends frees its buffers
  });
  http_ = std::move(server);
  return true;
}

transports::UnixSocketOptions FrontDoors::unix_socket_options(const config::Config& config) const {
  auto wanted = config.mcp.unix_socket;
  if (options_.unix_socket) wanted.path = *options_.unix_socket;
  return {wanted.path, wanted.group, wanted.mode};
}

bool FrontDoors::reconcile_unix_socket() {
  const bool path_given = options_.unix_socket || ctx_.config.mcp.unix_socket.path_given;
  const auto socket = unix_socket_options(ctx_.config);
  if (unix_listener_) {
    const auto& open = unix_listener_->options();
    if (open.path == socket.path && open.group == socket.group && open.mode == socket.mode) return true;
    unix_listener_->close();
    unix_listener_.reset();
  }
  if (prepared_unix_) {
    unix_listener_ = std::move(prepared_unix_);
    return true;
  }
  if (socket.path.empty()) return true;
  // The default path needs /run/mcpud, which the packaged service makes: outside
  // it (a laptop's `make run`) the daemon serves TCP alone, and says so calmly.
  const auto directory = std::filesystem::path(socket.path).parent_path();
  std::error_code ignored;
  if (!path_given && !std::filesystem::is_directory(directory, ignored)) {
    log::info("unix", "no ", directory.string(), " (the packaged service makes it): no unix socket at ", socket.path,
              " (set unix_socket.path or --unix for one elsewhere)");
    return true;
  }
  auto listener = std::make_unique<transports::UnixListener>(ctx_.io, socket, ctx_.engine, ctx_.sessions, ctx_.limits);
  if (auto opened = listener->open(); !opened) {
    if (!path_given) {
      log::warn("unix", opened.error(), "; unix socket disabled (set unix_socket.path or --unix)");
      return true;
    }
    log::error("unix", opened.error());
    return false;
  }
  unix_listener_ = std::move(listener);
  return true;
}

void FrontDoors::close() {
  for (auto* listeners : {&tcp_, &tls_tcp_}) {
    for (auto& listener : listeners->running) listener->close();
  }
  for (auto& listener : tty_listeners_) listener->close();
  if (unix_listener_) unix_listener_->close();
  if (http_) http_->close();
}

}  // namespace mcpud::app
