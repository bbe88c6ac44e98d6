// SPDX-License-Identifier: MIT
// Daemon start-up, reload and shutdown on one io_context thread.
#include "app/daemon.hpp"

#include <algorithm>
#include <csignal>
#include <functional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "app/daemon_resources.hpp"
#include "app/service_notifier.hpp"
#include "app/mcp_front_doors.hpp"
#include "app/uplinks.hpp"
#include "app/version.hpp"
#include "bridge/bridge_set.hpp"
#include "config/mcp_config.hpp"
#include "dbus/dbus_service.hpp"
#include "dbus/pin_rows.hpp"
#include "dialects/dispatcher.hpp"
#include "dialects/mcpu_dialect.hpp"
#include "mcpud/core/activity_log.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/core/log_tail.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "serial/serial_service.hpp"
#include "serial/serial_tools.hpp"
#include "tools/info_tool.hpp"
#include "tools/pin_sampling.hpp"
#include "tools/pin_table.hpp"
#include "tools/pin_tools.hpp"
#include "transports/tcp_listener.hpp"
#include "transports/tty_listener.hpp"

namespace mcpud::app {

std::expected<config::Config, std::string> load_config(const Options& options) {
  auto loaded = options.config_path ? config::load_file(*options.config_path) : config::builtin();
  if (!loaded) return loaded;
  if (!options.listen.empty()) loaded->listen = options.listen;
  for (const auto& spec : options.ttys) {
    auto tty = config::parse_tty(spec);
    if (!tty) return std::unexpected("--tty " + tty.error());
    loaded->ttys.push_back(*tty);
  }
  if (options.log_level) loaded->log_level = *options.log_level;
  if (auto env = serial::apply_environment(loaded->serial, std::getenv); !env) {
    return std::unexpected("environment: " + env.error());
  }
  if (options.dbus) loaded->dbus = *options.dbus;
  if (auto bus = dbus::parse_bus(loaded->dbus); !bus) return std::unexpected("dbus " + bus.error());
  for (const auto& spec : loaded->listen) {
    if (auto endpoint = transports::parse_listen_address(spec); !endpoint) return std::unexpected("listen " + endpoint.error());
  }
  for (const auto& tty : loaded->ttys) {
    if (!transports::supported_baud(tty.baud)) {
      return std::unexpected("tty " + tty.path + ": unsupported baud rate " + std::to_string(tty.baud));
    }
  }
  for (const auto& bridge : loaded->bridges) {
    if (!bridge.port.empty() && !transports::supported_baud(bridge.baud)) {
      return std::unexpected("bridge " + bridge.id + ": unsupported baud rate " + std::to_string(bridge.baud));
    }
  }
  return loaded;
}

struct Daemon::Impl {
  explicit Impl(Options opts) : options(std::move(opts)) {}

  Options options;
  boost::asio::io_context io{1};
  boost::asio::signal_set signals{io, SIGINT, SIGTERM, SIGHUP};
  config::Config config;
  ToolRegistry registry;
  EventHub events;  // back rooms publish here; front doors subscribe
  LogTail log_tail{events};  // the log's last lines, for mcpu://daemon/log
  std::shared_ptr<ActivityLog> activity = std::make_shared<ActivityLog>(events);  // every call, while watched
  dialects::Dispatcher dispatcher{registry};
  rpc::Engine engine{dispatcher};
  std::unique_ptr<tools::PinTable> pins;
  std::unique_ptr<tools::PinSampling> sampling;
  std::unique_ptr<serial::SerialService> serial_ports;  // the serial tool set's sessions
  transports::SessionSet sessions;
  std::vector<std::unique_ptr<transports::TcpListener>> tcp_listeners;
  std::vector<std::unique_ptr<transports::TtyListener>> tty_listeners;
  bridge::BridgeSet bridges{io, registry, events};  // bridged microcontrollers

  transports::SessionLimits limits;  // borrowed by every listener
  std::size_t tools_fingerprint = 0;  // of the tool listing clients were last told about
  std::unique_ptr<dbus::DbusService> dbus_service;

  dbus::ControlSource control_source(dbus::BusKind bus) {
    return {[this] { return config.device; },
            kVersion,
            [this] { return config.board; },
            [this] {
              std::vector<std::string> out;
              for (const auto& l : line_listeners())
                out.push_back(l["kind"].get<std::string>() + " " + l["address"].get<std::string>());
              return out;
            },
            [this] {
              std::vector<dbus::ClientRow> out;
              sessions.for_each(
                  [&](const transports::Session& s) { out.push_back(sdbus::make_struct(s.transport(), s.peer())); });
              for (const auto& [transport, peer] : uplinks.clients())
                out.push_back(sdbus::make_struct(transport, peer));
              return out;
            },
            [this] { return dbus::pin_rows(*pins); },
            [this] { return pins->pins().size(); },
            [this] {
              notifier.reloading();  // as on SIGHUP
              auto reloaded = reload();
              notifier.ready();
              return reloaded;
            },
            std::string(dbus::bus_kind_name(bus)),
            [this](const std::string& text, auto reply) { uplinks.ask(text, std::move(reply)); },
            [this](const Tool& tool) { return config::is_user_only(tool, config.mcp.mcp); }};
  }

  // The TCP and tty listeners: [{kind, address}].
  nlohmann::json line_listeners() const {
    auto out = nlohmann::json::array();
    for (const auto& l : tcp_listeners) out.push_back({{"kind", "tcp"}, {"address", l->local_address()}});
    for (const auto& l : tty_listeners) out.push_back({{"kind", "tty"}, {"address", l->spec()}});
    return out;
  }

  DaemonResources daemon_resources{
      {[this] { return config.device; }, kVersion, [this] { return config.board; },
       [this] {
         auto out = line_listeners();
         for (auto& l : mcp.listeners()) out.push_back(std::move(l));
         return out;
       },
       [this] {
         auto out = mcp.http_clients();
         sessions.for_each([&](const transports::Session& s) {
           out.push_back({{"door", s.transport()}, {"client", s.peer()}});
         });
         return out;
       },
       [this] { return uplinks.status(); }, [this] { return bridges.status(registry); },
       [this] { return mcp.token_required(); }},
      *activity,
      log_tail};

  // The operator's interface; a bus that cannot be had is reported, not fatal:
  // MCP/U clients are served either way.
  void open_dbus() {
    const auto bus = dbus::parse_bus(config.dbus);
    if (!bus || !*bus) return;
    dbus_service = std::make_unique<dbus::DbusService>(io, registry, events, control_source(**bus));
    if (auto opened = dbus_service->open(**bus); !opened) {
      log::warn("dbus", opened.error(), "; continuing without D-Bus control");
      dbus_service.reset();
      return;
    }
    log::info("dbus", "serving io.mcpud.Daemon1 on the ", dbus::bus_kind_name(**bus), " bus");
  }

  ServiceNotifier notifier{io, take_notify_environment(), [this] { return status(); }};

  // One line for `systemctl status`.
  std::string status() const {
    return std::to_string(sessions.size()) + " clients (tcp " + std::to_string(sessions.count("tcp")) + ", tty " +
           std::to_string(sessions.count("tty")) + "); " + std::to_string(pins ? pins->pins().size() : 0) +
           " pins, " + std::to_string(registry.size()) + " tools";
  }
  McpFrontDoors mcp{{io, dispatcher, engine, events, sessions, limits, config,
                     [this]() -> tools::PinTable& { return *pins; }, kVersion,
                     [this](std::string_view id) { return serial_ports && serial_ports->find(id).has_value(); },
                     [this] { return bridges.discovery_settled(); }, &daemon_resources},
                    options.mcp};
  Uplinks uplinks{{io, registry, dispatcher, engine, events, limits, config, kVersion}};
  bool stopped = false;

  // Log level and limits take effect at once; limits for connections made from now on.
  void apply_settings() {
    if (auto level = log::parse_level(config.log_level)) log::set_level(*level);
    limits = {config.limits.max_line_bytes, config.limits.client_queue_bytes, config.limits.max_clients};
  }

  void install_front_doors() {
    registry.on_change([this] { publish_if_tools_changed(); });
    registry.observe_calls(activity);
    dialects::install_mcpu_dialect(dispatcher, {[this] { return config.device; }, kVersion,
                                                [this] {
                                                  auto described = tools::describe_pins(*pins);
                                                  bridges.describe_pins(described);
                                                  return described;
                                                }});
    tools::register_info_tool(registry, {[this] { return config.device; }, kVersion,
                                         [this] { return pins->pins().size(); }, [this] { return config.board; }});
    mcp.install();
  }

  // Replaces the board's pins and their tools with those of `next`. Real GPIO
  // lines and PWM channels are held exclusively, so the running ones are freed
  // first and taken back if the new set cannot be built.
  // Clients are told (tools/list_changed) only when what they would list differs:
  // a reload re-registers every tool, mostly unchanged.
  void publish_if_tools_changed() {
    std::vector<std::string> entries;  // sorted: re-registration reorders tools, which no client minds
    for (const auto& tool : registry.tools()) {
      entries.push_back(rpc::dump({tool->name, tool->description, tool->input_schema, tool->annotations.read_only,
                                   tool->annotations.destructive, config::is_user_only(*tool, config.mcp.mcp)}));
    }
    std::sort(entries.begin(), entries.end());
    std::string listing;
    for (const auto& entry : entries) listing += entry;
    const auto fingerprint = std::hash<std::string>{}(listing);
    if (fingerprint == tools_fingerprint) return;
    tools_fingerprint = fingerprint;
    events.publish({EventKind::ToolsChanged, "registry", nlohmann::json::object()});
  }

  std::expected<void, std::string> apply_pins(const config::Config& next) {
    const bool held = pins && config.board != "sim";
    if (held) release_pins();
    auto table = tools::PinTable::build(next);
    if (!table) {
      if (held) {
        if (auto again = tools::PinTable::build(config)) install_pins(std::move(*again), config);
        else {
          log::error("pins", "cannot take back the running pins: ", again.error().message);
          install_pins(std::make_unique<tools::PinTable>(), config);
        }
      }
      return std::unexpected(table.error().message);
    }
    install_pins(std::move(*table), next);
    return {};
  }

  void release_pins() {
    if (sampling) sampling->stop();
    sampling.reset();
    registry.remove_owner(tools::kPinToolsOwner);
    pins.reset();
  }

  void install_pins(std::unique_ptr<tools::PinTable> table, const config::Config& source) {
    ToolRegistry::Batch batch(registry);
    if (sampling) sampling->stop();
    registry.remove_owner(tools::kPinToolsOwner);
    pins = std::move(table);
    pins->set_foreign(source.bridges.empty() ? nullptr : &bridges);  // bridged pins are found by name
    tools::register_pin_tools(registry, *pins, &events);
    sampling = std::make_unique<tools::PinSampling>(io, *pins, events);
    sampling->start();
  }

  // The serial tools come and go with [serial] enabled; open sessions survive a reload.
  void apply_serial() {
    if (!config.serial.enabled) {
      registry.remove_owner(serial::kSerialToolsOwner);
      serial_ports.reset();
      return;
    }
    if (serial_ports) {
      serial_ports->reconfigure(config.serial);
      return;
    }
    serial_ports = std::make_unique<serial::SerialService>(io, events, config.serial);
    serial::register_serial_tools(registry, *serial_ports);
  }

  // Opens listeners the configuration names and closes those it no longer does;
  // unchanged ones (and their clients) stay up.
  bool reconcile_listeners() {
    bool ok = mcp.reconcile([this] { shutdown(); });
    if (options.mcp.stdio) return ok;  // the stdio client is the only one
    std::erase_if(tcp_listeners, [&](const auto& l) {
      const bool gone = std::find(config.listen.begin(), config.listen.end(), l->spec()) == config.listen.end();
      if (gone) l->close();
      return gone;
    });
    for (const auto& spec : config.listen) {
      if (std::any_of(tcp_listeners.begin(), tcp_listeners.end(), [&](const auto& l) { return l->spec() == spec; })) continue;
      auto listener = std::make_unique<transports::TcpListener>(io, spec, engine, sessions, limits);
      if (auto opened = listener->open(); !opened) {
        log::error("tcp", opened.error());
        ok = false;
        continue;
      }
      tcp_listeners.push_back(std::move(listener));
    }
    std::vector<std::string> tty_specs;
    for (const auto& tty : config.ttys) tty_specs.push_back(tty.path + ":" + std::to_string(tty.baud));
    std::erase_if(tty_listeners, [&](const auto& l) {
      return std::find(tty_specs.begin(), tty_specs.end(), l->spec()) == tty_specs.end();
    });
    for (const auto& tty : config.ttys) {
      const auto spec = tty.path + ":" + std::to_string(tty.baud);
      if (std::any_of(tty_listeners.begin(), tty_listeners.end(), [&](const auto& l) { return l->spec() == spec; })) continue;
      auto listener = std::make_unique<transports::TtyListener>(io, tty.path, tty.baud, engine, sessions, limits);
      listener->start();
      tty_listeners.push_back(std::move(listener));
    }
    return ok;
  }

  bool start() {
    auto loaded = load_config(options);
    if (!loaded) {
      log::error("config", loaded.error());
      return false;
    }
    config = std::move(*loaded);
    apply_settings();
    install_front_doors();
    if (auto applied = apply_pins(config); !applied) {
      log::error("pins", applied.error());
      return false;
    }
    apply_serial();
    if (!reconcile_listeners()) return false;
    bridges.reconcile(config.bridges);
    uplinks.reconcile();
    open_dbus();
    log::info("daemon", "mcpud ", kVersion, " ready: device '", config.device, "', board '", config.board, "', ",
              pins->pins().size(), " pins, ", registry.size(), " tools");
    return true;
  }

  // A reload never takes the daemon down: whatever a step throws is reported and
  // the daemon goes on with what it has.
  std::expected<void, std::string> reload() {
    try {
      return reload_steps();
    } catch (const std::exception& e) {
      const std::string why = std::string("reload failed: ") + e.what();
      log::error("config", why);
      events.publish({EventKind::Log, "config", {{"level", "error"}, {"message", why}}});
      return std::unexpected(why);
    }
  }

  std::expected<void, std::string> reload_steps() {
    log::info("daemon", "reloading ", options.config_path.value_or("the built-in configuration"));
    auto loaded = load_config(options);
    // Clients see a failed reload too (MCP notifications/message).
    const auto refuse = [this](std::string_view category, const std::string& why) {
      log::error(category, why, "; keeping the running configuration");
      events.publish({EventKind::Log, std::string(category), {{"level", "error"}, {"message", "reload failed: " + why}}});
      return std::unexpected(why);
    };
    if (!loaded) return refuse("config", loaded.error());
    if (auto applied = apply_pins(*loaded); !applied) return refuse("pins", applied.error());
    config = std::move(*loaded);
    apply_settings();
    apply_serial();
    reconcile_listeners();
    bridges.reconcile(config.bridges);
    uplinks.reconcile();
    publish_if_tools_changed();  // [mcp] user_only_tools may have changed what is listed
    log::info("daemon", "reloaded: ", pins->pins().size(), " pins, ", registry.size(), " tools");
    return {};
  }

  void shutdown() {
    if (stopped) return;  // the stdio client's end also calls this
    stopped = true;
    notifier.stopping();
    uplinks.close();
    mcp.close();
    if (dbus_service) dbus_service->close();
    for (auto& l : tcp_listeners) l->close();
    for (auto& l : tty_listeners) l->close();
    sessions.close_all();
    if (serial_ports) serial_ports->shutdown();
    bridges.stop_all();
    if (sampling) sampling->stop();
    if (pins) pins->drive_safe_values();
    signals.cancel();
    log::info("daemon", "stopped; outputs at their safe values");
  }

  void wait_for_signal() {
    signals.async_wait([this](boost::system::error_code ec, int signal) {
      if (ec) return;
      if (signal == SIGHUP) {
        notifier.reloading();
        reload();
        notifier.ready();
        wait_for_signal();
        return;
      }
      log::info("daemon", "received ", signal == SIGINT ? "SIGINT" : "SIGTERM", ", shutting down");
      shutdown();
    });
  }
};

Daemon::Daemon(Options options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Daemon::~Daemon() = default;

int Daemon::run() {
  std::signal(SIGPIPE, SIG_IGN);  // a vanished peer is an error code, not a death
  if (!impl_->start()) {
    impl_->shutdown();
    return 1;
  }
  impl_->notifier.ready();  // the listeners are bound
  impl_->wait_for_signal();
  impl_->io.run();
  return 0;
}

}  // namespace mcpud::app
