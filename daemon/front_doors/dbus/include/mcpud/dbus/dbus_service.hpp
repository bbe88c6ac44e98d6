// SPDX-License-Identifier: MIT
// mcpud's D-Bus front door: owns the bus connection, exports io.mcpud.Daemon1,
// turns EventHub events into signals, and drives the connection from the
// daemon's io_context (no thread of its own). Single-threaded.
#pragma once

#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcpud/dbus/control.hpp"

namespace boost::asio {
class io_context;
}

namespace mcpud {
class EventHub;
}

namespace mcpud::dbus {

// "system", "session" or "none" (nullopt).
std::expected<std::optional<BusKind>, std::string> parse_bus(std::string_view text);
std::string_view bus_kind_name(BusKind kind);

// Why DbusService::open failed. `not_set_up`: the machine has no such bus, or
// the system bus's policy for io.mcpud.Daemon1 is not installed (mcpud runs
// outside its package, e.g. on a laptop): nothing an operator broke.
struct DbusOpenFailure {
  std::string message;
  bool not_set_up = false;
};

class DbusService {
 public:
  // Borrows all of them; they must outlive this object.
  DbusService(boost::asio::io_context& io, ToolRegistry& registry, EventHub& events, ControlSource source);
  ~DbusService();
  DbusService(const DbusService&) = delete;
  DbusService& operator=(const DbusService&) = delete;

  // Connects, takes the well-known name, exports the object and starts serving.
  // The error says which bus and why (no bus, name taken, access denied).
  std::expected<void, DbusOpenFailure> open(BusKind kind);
  // Releases the name and closes the connection; safe to call twice.
  void close();
  bool is_open() const;

 private:
  struct Connection;
  std::unique_ptr<Connection> bus_;
};

}  // namespace mcpud::dbus
