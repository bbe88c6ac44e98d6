// SPDX-License-Identifier: MIT
// mcpuctl's side of io.mcpud.Daemon1: one proxy on one bus connection, a method
// per D-Bus method, and a blocking signal watch. Failures throw sdbus::Error
// (main turns them into a one-line reason and a non-zero exit).
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/dbus/names.hpp"

namespace sdbus {
class IConnection;
class IProxy;
}  // namespace sdbus

namespace mcpud::ctl {

class Client {
 public:
  explicit Client(dbus::BusKind kind);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  dbus::Dict info();
  dbus::Dict properties();  // org.freedesktop.DBus.Properties.GetAll
  std::vector<dbus::ToolRow> tools(bool with_user_tools);
  std::string call(const std::string& name, const std::string& arguments_json);
  // Ask: the services uplink's AI server answers `text`; waits up to `timeout`.
  std::string ask(const std::string& text, std::chrono::seconds timeout);
  std::vector<dbus::PinRow> pins();
  std::vector<dbus::BridgeRow> bridges();
  std::vector<dbus::ClientRow> clients();
  std::vector<dbus::SessionRow> sessions();
  void reload();

  // Safety (docs/safety.md): stop, reset, the state and pending approvals,
  // approve or deny one, the audit ring after a sequence number.
  void emergency_stop(const std::string& reason);
  void reset_emergency_stop();
  nlohmann::json safety();
  void approve(std::uint64_t id);
  void deny(std::uint64_t id);
  nlohmann::json audit(std::uint64_t after);
  // Calls `on_record` with each audit record after `after`: those the ring
  // has, then each AuditRecord signal, a gap before any as {"lost": N} (the
  // records the ring no longer had), until `count` records came (0: forever).
  // False when mcpud left the bus first.
  bool follow_audit(std::uint64_t after, std::size_t count,
                    const std::function<void(const nlohmann::json&)>& on_record);

  // Calls `on_event` with each PinEvent / ToolsChanged signal as JSON
  // ({"signal": "PinEvent", "pin": ..., ...}) until `count` arrived (0: forever).
  // `on_ready` runs once the subscription is active, before any event. Returns
  // false when mcpud left the bus (stopped or restarted) before `count` events.
  bool watch(std::size_t count, const std::function<void(const nlohmann::json&)>& on_event,
             const std::function<void()>& on_ready);

 private:
  std::unique_ptr<sdbus::IProxy> stop_when_daemon_leaves(bool& daemon_left);
  // The rows a List* method of the daemon returns.
  template <class Row>
  std::vector<Row> rows_of(const char* method);

  std::unique_ptr<sdbus::IConnection> connection_;
  std::unique_ptr<sdbus::IProxy> proxy_;
};

}  // namespace mcpud::ctl
