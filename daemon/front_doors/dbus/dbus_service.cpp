// SPDX-License-Identifier: MIT
// The D-Bus connection on the daemon's event loop: wait for what sd-bus asks for
// (readable/writable fd, timeout), process until nothing is pending, re-arm.
#include "mcpud/dbus/dbus_service.hpp"

#include <poll.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

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
      : io(io_context),
        events(hub),
        control(registry, std::move(source)),
        bus_fd(io_context),
        event_fd(io_context),
        timer(io_context) {}

  asio::io_context& io;
  EventHub& events;
  Control control;
  std::unique_ptr<sdbus::IConnection> connection;
  std::unique_ptr<compat::ControlObject> object;
  EventHub::Subscription subscription;
  asio::posix::stream_descriptor bus_fd;    // borrowed from sd-bus: released, never closed here
  asio::posix::stream_descriptor event_fd;  // 2.x only
  asio::steady_timer timer;
  std::uint64_t generation = 0;  // completions of older waits are ignored
  bool kick_pending = false;
  std::shared_ptr<bool> alive = std::make_shared<bool>(true);

  void open(BusKind kind) {
    connection = compat::connect(kind);
    compat::request_name(*connection, kBusName);
    object = compat::export_control(*connection, control, [this] { kick(); });
    const auto data = compat::poll_data(*connection);
    bus_fd.assign(data.fd);
    if (data.event_fd >= 0) event_fd.assign(data.event_fd);
    subscription = events.subscribe([this](const Event& event) { forward(event); });
    dispatch();
  }

  void close() {
    subscription.reset();
    ++generation;
    timer.cancel();
    if (bus_fd.is_open()) {
      bus_fd.cancel();
      bus_fd.release();
    }
    if (event_fd.is_open()) {
      event_fd.cancel();
      event_fd.release();
    }
    object.reset();
    if (connection) {
      try {
        compat::process_one(*connection);  // flush what is queued
      } catch (const sdbus::Error&) {
      }
    }
    connection.reset();
  }

  // Something was sent from outside dispatch(): process soon so it is flushed
  // and the wait matches what sd-bus wants now.
  void kick() {
    if (kick_pending || !connection) return;
    kick_pending = true;
    asio::post(io, [this, alive = std::weak_ptr<bool>(alive)] {
      if (alive.expired()) return;
      kick_pending = false;
      if (connection) dispatch();
    });
  }

  void dispatch() {
    try {
      while (compat::process_one(*connection)) {
      }
    } catch (const sdbus::Error& e) {
      log::error("dbus", "connection failed: ", e.what(), "; D-Bus control is off until restart");
      close();
      return;
    }
    arm();
  }

  void arm() {
    const auto data = compat::poll_data(*connection);
    const auto current = ++generation;
    bus_fd.cancel();  // waits of the previous round would pile up otherwise
    if (event_fd.is_open()) event_fd.cancel();
    auto ready = [this, current](const boost::system::error_code& ec) {
      if (ec || current != generation) return;
      dispatch();
    };
    if (data.events & POLLIN) bus_fd.async_wait(asio::posix::descriptor_base::wait_read, ready);
    if (data.events & POLLOUT) bus_fd.async_wait(asio::posix::descriptor_base::wait_write, ready);
    if (event_fd.is_open()) event_fd.async_wait(asio::posix::descriptor_base::wait_read, ready);
    if (data.timeout) {
      timer.expires_after(*data.timeout);
      timer.async_wait(ready);
    } else {
      timer.cancel();
    }
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
    kick();
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
