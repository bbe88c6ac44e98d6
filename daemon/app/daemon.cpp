// SPDX-License-Identifier: MIT
// Daemon start-up, reload and shutdown on one io_context thread.
#include "daemon.hpp"

#include <algorithm>
#include <csignal>
#include <functional>
#include <optional>
#include <set>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <unistd.h>

#include "../stdio_relay/relay.hpp"
#include "daemon_resources.hpp"
#include "front_doors.hpp"
#include "heap_trimmer.hpp"
#include "info_tool.hpp"
#include "lan_announcement.hpp"
#include "mcp_config.hpp"
#include "mcpud/bridge/bridge_set.hpp"
#include "mcpud/buses/bus_devices.hpp"
#include "mcpud/buses/bus_tools.hpp"
#include "mcpud/core/activity_log.hpp"
#include "mcpud/core/calls_asked.hpp"
#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/core/log_tail.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/dbus/announcer.hpp"
#include "mcpud/dbus/dbus_service.hpp"
#include "mcpud/dialects/mcpu_dialect.hpp"
#include "mcpud/hal/sim_buses.hpp"
#include "mcpud/io/port_settings.hpp"
#include "mcpud/io/tcp_endpoint.hpp"
#include "mcpud/pins/pin_service.hpp"
#include "mcpud/pins/pin_tools.hpp"
#include "mcpud/serial/serial_service.hpp"
#include "mcpud/serial/serial_tools.hpp"
#include "mcpud/transports/session.hpp"
#include "mcpud/uplinks/uplink_set.hpp"
#include "mcpud/version.hpp"
#include "pin_rows.hpp"
#include "safety.hpp"
#include "service_notifier.hpp"
#include "status_feed.hpp"

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
  // A user's own `mcpud --stdio` opens ports with that user's rights: like
  // serial-mcp, any serial port unless the file or environment lists some.
  loaded->serial.any_port_when_unset = options.mcp.stdio;
  if (options.dbus) loaded->dbus = *options.dbus;
  if (auto bus = dbus::parse_bus(loaded->dbus); !bus) return std::unexpected("dbus " + bus.error());
  for (const auto& spec : loaded->listen) {
    if (auto endpoint = io::listen_endpoint(spec); !endpoint) return std::unexpected("listen " + endpoint.error());
  }
  for (const auto& tty : loaded->ttys) {
    if (!io::is_standard_baud(tty.baud)) {
      return std::unexpected("tty " + tty.path + ": unsupported baud rate " + std::to_string(tty.baud));
    }
  }
  for (const auto& bridge : loaded->bridges) {
    if (!bridge.port.empty() && !io::is_standard_baud(bridge.baud)) {
      return std::unexpected("bridge " + bridge.id + ": unsupported baud rate " + std::to_string(bridge.baud));
    }
  }
  return loaded;
}

struct Daemon::Wiring {
  explicit Wiring(Options opts) : options(std::move(opts)) {}

  Options options;
  // One thread runs the loop and owns every socket, so the reactor need not
  // lock each descriptor's operations; posting from the sensor worker still
  // goes through the scheduler's lock.
  boost::asio::io_context io{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
  boost::asio::signal_set signals{io, SIGINT, SIGTERM, SIGHUP};
  config::Config config;
  ToolRegistry registry;
  EventHub events;           // back rooms publish here; front doors subscribe
  LogTail log_tail{events};  // the log's last lines, for mcpu://daemon/log
  std::shared_ptr<ActivityLog> activity = std::make_shared<ActivityLog>(events);  // every call, while watched
  rpc::Dispatcher dispatcher{registry};
  HeapTrimmer heap_trimmer{io, dispatcher};  // every request passes it on its way to the dispatcher
  rpc::Engine engine{heap_trimmer};
  // The simulated board's I2C, SPI and 1-Wire buses, made when a board "sim"
  // first uses them and kept, with what their chips hold, across reloads.
  std::unique_ptr<hal::SimBuses> sim_buses;
  pins::PinService board{io, registry, events};         // the board's pins (bridged pins are found through `bridges`)
  std::unique_ptr<serial::SerialService> serial_ports;  // the serial tool set's sessions
  buses::BusSettings bus_settings;                      // what the I2C and SPI tools read on each call
  buses::LastTransfers bus_transfers{events};           // each bus device's last transfer, for people to see
  transports::SessionSet sessions;
  bridge::BridgeSet bridges{io, registry, events};  // bridged microcontrollers
  Safety safety{io, registry, events, board};       // the gate of actuating calls, e-stop, approvals, audit

  transports::SessionLimits limits;   // borrowed by every listener
  std::size_t tools_fingerprint = 0;  // of the tool listing clients were last told about
  std::unique_ptr<dbus::DbusService> dbus_service;
  dbus::Announcer announcer{io};  // the listeners beyond loopback, on the LAN through avahi-daemon
  // _mcpu._tcp boards on the LAN, while a [[bridges]] table discovers one.
  std::unique_ptr<dbus::ServiceWatch> board_watch;
  std::vector<dbus::FoundService> found_boards;
  std::set<std::string> waiting_bridges;  // ids of the discovering tables no board matched yet (said once)

  dbus::ControlSource control_source(dbus::BusKind bus) {
    return {[this] { return config.device; },
            kVersion,
            [this] { return std::string(pins::board_kind_name(config.board.kind)); },
            [this] {
              std::vector<std::string> out;
              for (const auto& l : doors.listeners())
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
            [this] { return pin_rows(board.table()); },
            [this] { return board.size(); },
            [this] {
              notifier.reloading();  // as on SIGHUP
              auto reloaded = reload();
              notifier.ready();
              return reloaded;
            },
            std::string(dbus::bus_kind_name(bus)),
            [this](const std::string& text, auto reply) { uplinks.ask(text, std::move(reply)); },
            [this] { return bridges.status(registry); },
            &safety};
  }

  DaemonResources daemon_resources{
      {[this] { return config.device; }, kVersion,
       [this] { return std::string(pins::board_kind_name(config.board.kind)); }, [this] { return doors.listeners(); },
       [this] {
         auto out = doors.http_clients();
         sessions.for_each([&](const transports::Session& s) {
           out.push_back({{"door", s.transport()}, {"client", s.peer()}});
         });
         return out;
       },
       [this] { return uplinks.status(); }, [this] { return bridges.status(registry); },
       [this] { return doors.token_required(); }, [this] { return bus_transfers.describe(bus_settings); }},
      *activity,
      log_tail,
      &safety};
  StatusFeed status_feed{io, events, [this] { return daemon_resources.status(); }};

  // The operator's interface; a bus that cannot be had is reported, not fatal:
  // MCP/U clients are served either way.
  void open_dbus() {
    const auto bus = dbus::parse_bus(config.dbus);
    if (!bus || !*bus) return;
    dbus_service = std::make_unique<dbus::DbusService>(io, registry, events, control_source(**bus));
    if (auto opened = dbus_service->open(**bus); !opened) {
      // Outside the package (a laptop's `make run`) there is no bus for mcpud: say so, but not as a fault.
      if (opened.error().not_set_up) {
        log::info("dbus", opened.error().message, "; continuing without D-Bus control (mcpuctl)");
      } else {
        log::warn("dbus", opened.error().message, "; continuing without D-Bus control");
      }
      dbus_service.reset();
      return;
    }
    log::info("dbus", "serving io.mcpud.Daemon1 on the ", dbus::bus_kind_name(**bus), " bus");
  }

  ServiceNotifier notifier{io, take_notify_environment(), [this] { return status(); }};

  // One line for `systemctl status`.
  std::string status() const {
    return std::to_string(sessions.size()) + " clients (tcp " + std::to_string(sessions.count("tcp")) + ", tty " +
           std::to_string(sessions.count("tty")) + "); " + std::to_string(board.size()) + " pins, " +
           std::to_string(registry.size()) + " tools";
  }
  FrontDoors doors{{io, dispatcher, engine, events, sessions, heap_trimmer, limits, config,
                    [this]() -> pins::PinTable& { return board.table(); }, board.sensor_reads(), kVersion,
                    [this](std::string_view id, const Caller& caller) {
                      return serial_ports && serial_ports->find(id, caller.identity).has_value();
                    },
                    [this] { return bridges.discovery_settled(); }, &daemon_resources, &safety},
                   options.mcp};
  uplinks::UplinkSet uplinks{{io, registry, dispatcher, engine, events, config.uplink, [this] { return config.device; },
                              [this] {
                                return uplinks::UplinkSet::ClientLimits{limits.max_line_bytes, limits.queue_bytes};
                              },
                              kVersion}};
  bool stopped = false;
  int exit_status = 0;  // what run() returns: 1 when the stdio client's replies were lost

  // Log level and limits take effect at once; limits for connections made from now on.
  void apply_settings() {
    if (auto level = log::parse_level(config.log_level)) log::set_level(*level);
    registry.set_user_only_names(config.mcp.mcp.user_only_tools);
    activity->show_details(config.mcp.mcp.activity_details);
    const auto& configured = config.limits;
    limits = {configured.max_line_bytes, configured.client_queue_bytes, configured.max_clients,
              configured.max_clients_per_address, std::chrono::seconds(configured.idle_timeout_s)};
  }

  void install_front_doors() {
    registry.on_change([this] { publish_if_tools_changed(); });
    registry.observe_calls(activity);
    sessions.on_change([this] {
      events.touch_status("clients");
      heap_trimmer.note_activity();  // a client that leaves frees its buffers
    });
    dialects::install_mcpu_dialect(dispatcher, {[this] { return config.device; }, kVersion,
                                                [this] {
                                                  auto described = pins::describe_pins(board.table(), &board.guard());
                                                  bridges.describe_pins(described);
                                                  return described;
                                                }});
    register_info_tool(registry, {[this] { return config.device; }, kVersion, [this] { return board.size(); },
                                  [this] { return std::string(pins::board_kind_name(config.board.kind)); }});
    doors.install();
  }

  // Clients are told (tools/list_changed) only when what they would list differs:
  // a reload re-registers every tool, mostly unchanged.
  void publish_if_tools_changed() {
    std::vector<std::string> entries;  // sorted: re-registration reorders tools, which no client minds
    for (const auto& tool : registry.tools()) {
      entries.push_back(rpc::dump({tool->name, tool->description, tool->input_schema, tool->annotations.read_only,
                                   tool->annotations.destructive, registry.is_user_only(*tool)}));
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
    if (config::uses_simulated_buses(next) && !sim_buses) {
      auto made = hal::SimBuses::make();
      if (!made) return std::unexpected(made.error().message);
      sim_buses = std::move(*made);
    }
    return board.apply(next.board, next.device, next.bridges.empty() ? nullptr : &bridges, simulated(next));
  }

  // The simulated board's buses while the board is "sim", else none.
  hal::SimBuses* simulated(const config::Config& c) const {
    return c.board.kind == pins::BoardKind::Sim ? sim_buses.get() : nullptr;
  }

  // The serial tools come and go with [serial] enabled; open sessions survive a reload.
  void apply_serial() {
    registry.set_absence_reason("serial_*",
                                config.serial.enabled ? "" : "the serial tools are off: [serial] enabled = false");
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

  // The I2C and SPI tools are offered while their section lists a bus or
  // device; on board "sim" they reach the simulated board's device nodes and
  // its sysfs tree in place of the kernel's.
  void apply_buses() {
    auto i2c = config.i2c;
    auto spi = config.spi;
    if (auto* sim = simulated(config)) {
      i2c.dev_root = spi.dev_root = sim->dev_root();
      i2c.sysfs_root = sim->sysfs_root();
      bus_settings.set_nodes(*sim);
    } else {
      bus_settings.set_nodes(hal::kernel_device_nodes());
    }
    bus_settings.set_i2c(std::move(i2c));
    bus_settings.set_spi(std::move(spi));
    bus_transfers.keep_configured(bus_settings);
    // A call of an absent bus tool says which section would offer it.
    const auto offer = [this](bool wanted, const char* owner, const char* tool, const char* absent, auto add) {
      if (!wanted) registry.remove_owner(owner);
      if (wanted && !registry.find(tool)) add(registry, bus_settings, bus_transfers);
      const std::string_view name = tool;
      registry.set_absence_reason(std::string(name.substr(0, name.find('_'))) + "_*", wanted ? "" : absent);
    };
    offer(!config.i2c.buses.empty(), buses::kI2cToolsOwner, "i2c_scan",
          "no I2C bus is configured: list one in [[i2c.buses]], see docs/hardware.md", buses::register_i2c_tools);
    offer(!config.spi.devices.empty(), buses::kSpiToolsOwner, "spi_transfer",
          "no SPI device is configured: list one in [[spi.devices]], see docs/hardware.md", buses::register_spi_tools);
  }

  // `mcpud --stdio` on a board a running mcpud owns (its unix socket answers)
  // relays to it, as mcpud-stdio would, instead of claiming the pins a second
  // time; the exit status when it did, nothing when no daemon answered.
  std::optional<int> relay_to_running_daemon() {
    if (!options.mcp.stdio) return std::nullopt;
    auto loaded = load_config(options);
    if (!loaded) return std::nullopt;  // start() says what is wrong with it
    const auto path = options.mcp.unix_socket.value_or(loaded->mcp.unix_socket.path);
    if (path.empty()) return std::nullopt;
    std::string error;
    const int fd = stdio_relay::connect_unix(path, error);
    if (fd < 0) return std::nullopt;  // no daemon there: this one serves the board
    log::info("stdio", "a running mcpud answers on ", path, ": relaying stdin/stdout to it");
    const int status = stdio_relay::relay(STDIN_FILENO, STDOUT_FILENO, fd, error);
    if (status != 0) log::error("stdio", "relay to ", path, ": ", error);
    return status;
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
    safety.apply(config.safety);
    apply_serial();
    apply_buses();
    if (!doors.reconcile([this](bool failed) { stdio_closed(failed); })) return false;
    reconcile_bridges();
    uplinks.reconcile();
    announce();
    open_dbus();
    events.touch_status("listeners");
    log::info("daemon", "mcpud ", kVersion, " ready: device '", config.device, "', board '",
              pins::board_kind_name(config.board.kind), "', ", board.size(), " pins, ", registry.size(), " tools");
    return true;
  }

  // A reload never takes the daemon down: whatever a step throws is reported and
  // the daemon goes on with what it has.
  std::expected<void, std::string> reload() {
    try {
      return reload_steps();
    } catch (const std::exception& e) {
      doors.abandon_prepared();
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
      events.publish(
          {EventKind::Log, std::string(category), {{"level", "error"}, {"message", "reload failed: " + why}}});
      return std::unexpected(why);
    };
    if (!loaded) return refuse("config", loaded.error());
    // New listeners open beside the running ones first: one that cannot (an
    // address in use) refuses the reload before anything changed.
    if (auto prepared = doors.prepare(*loaded); !prepared) return refuse("listen", prepared.error());
    if (auto applied = apply_pins(*loaded); !applied) {
      doors.abandon_prepared();
      return refuse("pins", applied.error());
    }
    config = std::move(*loaded);
    apply_settings();
    safety.apply(config.safety);
    apply_serial();
    apply_buses();
    doors.reconcile([this](bool failed) { stdio_closed(failed); });
    reconcile_bridges();
    uplinks.reconcile();
    announce();
    publish_if_tools_changed();     // [mcp] user_only_tools may have changed what is listed
    events.touch_status("reload");  // listeners, uplinks, bridges, the device's name
    log::info("daemon", "reloaded: ", board.size(), " pins, ", registry.size(), " tools");
    return {};
  }

  void reconcile_bridges() {
    const bool discovers = std::any_of(config.bridges.begin(), config.bridges.end(),
                                       [](const bridge::BridgeConfig& b) { return !b.discover.empty(); });
    if (discovers && !board_watch) {
      board_watch = std::make_unique<dbus::ServiceWatch>(io, "_mcpu._tcp", [this](const auto& found) {
        found_boards = found;
        reconcile_bridges();
      });
      board_watch->start();
    } else if (!discovers) {
      board_watch.reset();
      found_boards.clear();
    }
    const auto own = config.discovery.announce ? instance_name(config.discovery.name, config.device) : std::string();
    auto placed = place_discovered_bridges(config.bridges, found_boards, own);
    std::set<std::string> waiting;
    for (const auto& wanted : config.bridges) {
      const auto is_it = [&](const bridge::BridgeConfig& b) { return b.id == wanted.id; };
      if (wanted.discover.empty() || std::any_of(placed.begin(), placed.end(), is_it)) continue;
      waiting.insert(wanted.id);
      if (!waiting_bridges.contains(wanted.id))
        log::info("bridge", wanted.id, ": no board on the LAN announces a name like '", wanted.discover,
                  "' yet: bridged once one does");
    }
    waiting_bridges = std::move(waiting);
    bridges.reconcile(std::move(placed));
  }

  void announce() {
    const auto name = instance_name(config.discovery.name, config.device);
    if (!config.discovery.announce) return announcer.announce(name, {});
    announcer.announce(name, services_to_announce(doors.listeners(), !config.mcp.http.token.empty()));
  }

  // The stdio client is gone: mcpud --stdio stops with it, failing when its
  // replies could not be written.
  void stdio_closed(bool failed) {
    if (failed) exit_status = 1;
    shutdown();
  }

  void shutdown() {
    if (stopped) return;  // the stdio client's end also calls this
    stopped = true;
    notifier.stopping();
    safety.stop();
    status_feed.stop();
    heap_trimmer.stop();
    uplinks.close();
    board_watch.reset();
    announcer.close();  // withdrawn before the doors close, so browsers never see a dead board
    doors.close();
    if (dbus_service) dbus_service->close();
    sessions.close_all();
    if (serial_ports) serial_ports->shutdown();
    bridges.stop_all();
    // A host's probe spawn (SDK v2 `auto` runs a second `mcpud --stdio` for
    // server/discover) called no tool: its exit must not reset the outputs
    // that another mcpud or the previous user left as they are.
    const bool drove_nothing = options.mcp.stdio && tool_calls_asked() == 0;
    board.stop(!drove_nothing);
    signals.cancel();
    log::info("daemon", drove_nothing ? "stopped; no tool was called, outputs left as they were"
                                      : "stopped; outputs at their safe values");
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

Daemon::Daemon(Options options) : wiring_(std::make_unique<Wiring>(std::move(options))) {}
Daemon::~Daemon() = default;

int Daemon::run() {
  std::signal(SIGPIPE, SIG_IGN);  // a vanished peer is an error code, not a death
  if (auto relayed = wiring_->relay_to_running_daemon()) return *relayed;
  if (!wiring_->start()) {
    wiring_->shutdown();
    return 1;
  }
  wiring_->notifier.ready();  // the listeners are bound
  wiring_->wait_for_signal();
  wiring_->io.run();
  return wiring_->exit_status;
}

}  // namespace mcpud::app
