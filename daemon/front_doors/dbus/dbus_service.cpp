// SPDX-License-Identifier: MIT
// io.mcpud.Daemon1 on a bus connection that BusPump drives from the event loop.
#include "mcpud/dbus/dbus_service.hpp"

#include <algorithm>
#include <array>
#include <filesystem>

#include <boost/asio/io_context.hpp>

#include "bus_pump.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus {

namespace asio = boost::asio;

namespace {

// What sd-bus says when there is no bus to connect to: no socket, or one nobody listens on.
constexpr std::array<std::string_view, 4> kNoBus{"org.freedesktop.DBus.Error.FileNotFound",
                                                 "org.freedesktop.DBus.Error.NoServer", "System.Error.ENOENT",
                                                 "System.Error.ECONNREFUSED"};
constexpr std::string_view kAccessDenied = "org.freedesktop.DBus.Error.AccessDenied";
// Where dbus-daemon and dbus-broker read the package's policy from.
constexpr std::array<const char*, 2> kPolicyFiles{"/usr/share/dbus-1/system.d/io.mcpud.Daemon1.conf",
                                                  "/etc/dbus-1/system.d/io.mcpud.Daemon1.conf"};

bool policy_installed() {
  std::error_code ignored;
  return std::any_of(kPolicyFiles.begin(), kPolicyFiles.end(),
                     [&](const char* path) { return std::filesystem::exists(path, ignored); });
}

}  // namespace

std::expected<std::optional<BusKind>, std::string> parse_bus(std::string_view text) {
  if (text == "system") return BusKind::System;
  if (text == "session") return BusKind::Session;
  if (text == "none") return std::nullopt;
  return std::unexpected("'" + std::string(text) + "': expected system, session or none");
}

std::string_view bus_kind_name(BusKind kind) { return kind == BusKind::System ? "system" : "session"; }

struct DbusService::Connection {
  Connection(asio::io_context& io_context, ToolRegistry& registry, EventHub& hub, ControlSource source)
      : events(hub), control(registry, std::move(source)), pump(io_context, [this](const std::string& why) {
          log::error("dbus", "connection failed: ", why, "; D-Bus control is off until restart");
          close();
        }) {}

  EventHub& events;
  Control control;
  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<compat::ControlObject> object;
  EventHub::Subscription subscription;
  BusPump pump;

  void open(BusKind kind) {
    connection = compat::connect(kind);
    compat::request_name(*connection, kBusName);
    object = compat::export_control(*connection, control, [this] { pump.kick(); });
    subscription = events.subscribe([this](const Event& event) { forward(event); });
    pump.start(*connection);
  }

  void close() {
    subscription.reset();
    object.reset();
    pump.stop();
    connection.reset();
  }

  void forward(const Event& event) {
    try {
      if (event.kind == EventKind::ToolsChanged) {
        object->emit_tools_changed();
      } else if (event.kind == EventKind::Audit) {
        object->emit_audit_record(event.data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      } else if (event.kind == EventKind::PinEvent) {
        const auto& d = event.data;
        object->emit_pin_event(d.value("pin", 0), d.value("name", ""), d.value("type", ""), d.value("value", 0.0),
                               d.value("timestamp_ms", std::int64_t{0}));
      } else {
        return;
      }
    } catch (const std::exception& e) {
      log::warn("dbus", "cannot emit ", event_kind_name(event.kind), ": ", e.what());
    }
    pump.kick();
  }
};

DbusService::DbusService(asio::io_context& io, ToolRegistry& registry, EventHub& events, ControlSource source)
    : bus_(std::make_unique<Connection>(io, registry, events, std::move(source))) {}

DbusService::~DbusService() { bus_->close(); }

std::expected<void, DbusOpenFailure> DbusService::open(BusKind kind) {
  try {
    bus_->open(kind);
  } catch (const sdbus::Error& e) {
    bus_->close();
    const auto name = compat::error_name(e);
    DbusOpenFailure failure{"cannot serve " + std::string(kBusName) + " on the " + std::string(bus_kind_name(kind)) +
                                " bus: " + e.getMessage() + " (" + name + ")",
                            false};
    if (std::find(kNoBus.begin(), kNoBus.end(), name) != kNoBus.end()) {
      failure.not_set_up = true;
    } else if (name == kAccessDenied && kind == BusKind::System && !policy_installed()) {
      failure.message += "; the system bus lets " + std::string(kBusName) + " be owned only as its policy says, " +
                         "and that policy (" + kPolicyFiles[0] + ", installed by the package) is not installed";
      failure.not_set_up = true;
    }
    return std::unexpected(std::move(failure));
  }
  return {};
}

void DbusService::close() { bus_->close(); }

bool DbusService::is_open() const { return bus_->connection != nullptr; }

}  // namespace mcpud::dbus
