// SPDX-License-Identifier: MIT
// What the io.mcpud.Daemon1 methods and properties do, independent of the
// sdbus-c++ version that exports them: reads the daemon's state and calls tools
// through the one registry. Single-threaded (event loop only).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <expected>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/safety_control.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/dbus/names.hpp"

namespace mcpud::dbus {

// A failure as a D-Bus error: full name ("io.mcpud.Error.PinNotFound") and message.
struct BusError {
  std::string name;
  std::string message;
};
template <class T>
using BusResult = std::expected<T, BusError>;
template <class T>
using BusReply = std::function<void(BusResult<T>)>;

// What the daemon lends to the control interface; every function is called from
// the event loop, when a method or property is asked for.
struct ControlSource {
  std::function<std::string()> device;
  std::string version;
  std::function<std::string()> board;
  std::function<std::vector<std::string>()> listeners;  // "tcp 127.0.0.1:3000", "tty /dev/ttyGS0:115200"
  std::function<std::vector<ClientRow>()> clients;
  std::function<std::vector<PinRow>()> pins;  // reads every pin
  std::function<std::size_t()> pin_count;
  std::function<std::expected<void, std::string>()> reload;
  std::string bus;  // "system" or "session", reported by GetInfo
  // A user turn through the services uplink (Ask); unset: not available.
  std::function<void(const std::string& text, std::function<void(Result<std::string>)> reply)> ask;
  // Each configured bridge's status (BridgeSet::status: {id, tools, link,
  // online, ...}), ListBridges's rows; unset: bridges are known by their tools.
  std::function<nlohmann::json()> bridges;
  // The human's side of the board's safety (e-stop, approvals, audit);
  // borrowed, nullable: the Safety methods answer Internal without it.
  SafetyControl* safety = nullptr;
};

// Who called on the bus: decides whether user-only tools may be called.
struct BusCaller {
  uid_t uid = static_cast<uid_t>(-1);
};

// True for root, the daemon's own user and members of kAdminGroup (as the
// user database says, like the bus policy).
bool may_call_user_only_tools(const BusCaller& caller);

// A BusError for a registry error: domain errors by their stable name,
// protocol errors as UnknownTool / InvalidArguments / Internal.
BusError to_bus_error(const Error& error);

class Control {
 public:
  // Borrows `registry`; it must outlive this object.
  Control(ToolRegistry& registry, ControlSource source);

  Dict info() const;
  std::vector<ToolRow> tools(bool with_user_tools) const;
  // Parses `arguments_json` (an object; empty text means {}), checks the caller
  // for user-only tools, then calls through the registry. `reply` runs once.
  // `caller` is asked only for user-only tools (it costs a bus round trip).
  void call_tool(const std::function<BusCaller()>& caller, const std::string& name, const std::string& arguments_json,
                 BusReply<std::string> reply) const;
  // Sends `text` to the AI server of the services uplink; replies with its answer.
  void ask(const std::string& text, BusReply<std::string> reply) const;
  std::vector<PinRow> pins() const { return source_.pins(); }
  // One row per bridge: its id, the count of tools whose owner is
  // "bridge:<id>", and the rest of its status as details (offline bridges too).
  std::vector<BridgeRow> bridges() const;
  std::vector<ClientRow> clients() const { return source_.clients(); }
  // Asks the serial tool set (serial_list_sessions) when it is registered.
  void serial_sessions(BusReply<std::vector<SessionRow>> reply) const;
  BusResult<void> reload() const;

  // The safety methods. Stopping is anyone's whom the bus policy lets call;
  // resetting, approving and denying also need `caller` to be root, mcpud's
  // own user or a member of kAdminGroup (NotAuthorized otherwise).
  BusResult<void> emergency_stop(const BusCaller& caller, const std::string& reason) const;
  BusResult<void> reset_emergency_stop(const BusCaller& caller) const;
  BusResult<std::string> safety_state() const;  // SafetyControl::state() as JSON text
  BusResult<void> approve(const BusCaller& caller, std::uint64_t id) const;
  BusResult<void> deny(const BusCaller& caller, std::uint64_t id) const;
  BusResult<std::string> audit(std::uint64_t after) const;  // SafetyControl::audit_since as JSON text

  std::string version() const { return source_.version; }
  std::string device() const { return source_.device(); }
  std::uint64_t uptime_s() const;
  std::uint32_t client_count() const { return static_cast<std::uint32_t>(source_.clients().size()); }

 private:
  ToolRegistry& registry_;
  ControlSource source_;
  // Every bus caller as one client, the owner of the serial sessions opened
  // through CallTool: the bus policy admits operators only, and each mcpuctl
  // command is a connection of its own, so a session opened by one command
  // stays usable by the next.
  std::shared_ptr<ClientIdentity> bus_identity_ = std::make_shared<ClientIdentity>();
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace mcpud::dbus
