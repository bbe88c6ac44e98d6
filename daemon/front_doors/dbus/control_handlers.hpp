// SPDX-License-Identifier: MIT
// The method and property handlers of io.mcpud.Daemon1 in the shape sdbus-c++
// calls them (typed arguments, sdbus::Result for asynchronous methods, errors
// thrown as sdbus::Error), shared by the 1.x and 2.x export code.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <functional>

#include "mcpud/dbus/control.hpp"

namespace mcpud::dbus {

class ControlHandlers {
 public:
  // `caller` tells who sent the message being handled; `sent` runs after an
  // asynchronous reply went out.
  ControlHandlers(Control& control, std::function<BusCaller()> caller, std::function<void()> sent);

  Dict get_info() const { return control_.info(); }
  std::vector<ToolRow> list_tools(bool with_user_tools) const { return control_.tools(with_user_tools); }
  void call_tool(sdbus::Result<std::string>&& result, const std::string& name, const std::string& arguments_json);
  void ask(sdbus::Result<std::string>&& result, const std::string& text);
  std::vector<PinRow> list_pins() const { return control_.pins(); }
  std::vector<BridgeRow> list_bridges() const { return control_.bridges(); }
  std::vector<ClientRow> list_clients() const { return control_.clients(); }
  void list_serial_sessions(sdbus::Result<std::vector<SessionRow>>&& result);
  void reload();
  void emergency_stop(const std::string& reason);
  void reset_emergency_stop();
  std::string get_safety();
  void approve(std::uint64_t id);
  void deny(std::uint64_t id);
  std::string get_audit(std::uint64_t after);

  std::string version() const { return control_.version(); }
  std::string device_name() const { return control_.device(); }
  std::uint64_t uptime() const { return control_.uptime_s(); }
  std::uint32_t client_count() const { return control_.client_count(); }

 private:
  Control& control_;
  std::function<BusCaller()> caller_;
  std::function<void()> sent_;
};

}  // namespace mcpud::dbus
