// SPDX-License-Identifier: MIT
// The small part of sdbus-c++ whose API differs between 1.x (Debian 12) and 2.x
// (Debian 13). One implementation file per major version (sdbus_compat_v1.cpp, sdbus_compat_v2.cpp)
// is compiled, chosen by the version pkg-config reports. Everything else in
// mcpud's D-Bus code uses only API both versions share.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <sdbus-c++/sdbus-c++.h>

#include "mcpud/dbus/names.hpp"

namespace mcpud::dbus {
class Control;
}

namespace mcpud::dbus::compat {

// Opens a connection to the system or session bus (DBUS_SYSTEM_BUS_ADDRESS /
// DBUS_SESSION_BUS_ADDRESS are honoured). Throws sdbus::Error.
std::unique_ptr<sdbus::IConnection> connect(BusKind kind);
void request_name(sdbus::IConnection& connection, const std::string& name);

// What to wait for before the next process_one(): `fd` for `events`, `event_fd`
// (2.x only, -1 otherwise) for input, and at most `timeout` (none: forever).
struct PollData {
  int fd = -1;
  short events = 0;
  int event_fd = -1;
  std::optional<std::chrono::microseconds> timeout;
};
PollData poll_data(const sdbus::IConnection& connection);
// Processes one pending event; false when nothing was pending.
bool process_one(sdbus::IConnection& connection);

// The exported /io/mcpud/Daemon1 object with the io.mcpud.Daemon1 interface.
class ControlObject {
 public:
  virtual ~ControlObject() = default;
  virtual void emit_pin_event(std::int32_t pin, const std::string& name, const std::string& type, double value,
                              std::int64_t timestamp_ms) = 0;
  virtual void emit_tools_changed() = 0;
  virtual void emit_audit_record(const std::string& record_json) = 0;
};
// Exports `control` (borrowed; it must outlive the object). `sent` runs after a
// reply was sent from outside the bus dispatch (asynchronous methods), so the
// event loop can flush it.
std::unique_ptr<ControlObject> export_control(sdbus::IConnection& connection, Control& control,
                                              std::function<void()> sent);

// Client side (mcpuctl, tests).
std::unique_ptr<sdbus::IProxy> make_proxy(sdbus::IConnection& connection, const std::string& destination,
                                          const std::string& path);
// Activates signal handlers registered with uponSignal() (needed by 1.x only).
void finish_proxy(sdbus::IProxy& proxy);
// Every message matching `rule` (a D-Bus match rule) on `connection`, for as
// long as the slot lives.
sdbus::Slot add_match(sdbus::IConnection& connection, const std::string& rule,
                      std::function<void(sdbus::Message& message)> handler);
std::string error_name(const sdbus::Error& error);
sdbus::Error make_error(const std::string& name, const std::string& message);

}  // namespace mcpud::dbus::compat
