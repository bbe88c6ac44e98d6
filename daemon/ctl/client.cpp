// SPDX-License-Identifier: MIT
// io.mcpud.Daemon1 calls through sdbus-c++'s convenience API.
#include "client.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::ctl {

using dbus::kInterface;

Client::Client(dbus::BusKind kind)
    : connection_(dbus::compat::connect(kind)),
      proxy_(dbus::compat::make_proxy(*connection_, dbus::kBusName, dbus::kObjectPath)) {}

Client::~Client() = default;

dbus::Dict Client::info() {
  dbus::Dict info;
  proxy_->callMethod("GetInfo").onInterface(kInterface).storeResultsTo(info);
  return info;
}

dbus::Dict Client::properties() {
  dbus::Dict values;
  proxy_->callMethod("GetAll")
      .onInterface("org.freedesktop.DBus.Properties")
      .withArguments(std::string(kInterface))
      .storeResultsTo(values);
  return values;
}

std::vector<dbus::ToolRow> Client::tools(bool with_user_tools) {
  std::vector<dbus::ToolRow> tools;
  proxy_->callMethod("ListTools").onInterface(kInterface).withArguments(with_user_tools).storeResultsTo(tools);
  return tools;
}

std::string Client::call(const std::string& name, const std::string& arguments_json) {
  std::string result;
  proxy_->callMethod("CallTool").onInterface(kInterface).withArguments(name, arguments_json).storeResultsTo(result);
  return result;
}

std::string Client::ask(const std::string& text, std::chrono::seconds timeout) {
  std::string reply;
  proxy_->callMethod("Ask").onInterface(kInterface).withTimeout(timeout).withArguments(text).storeResultsTo(reply);
  return reply;
}

template <class Row>
std::vector<Row> Client::rows_of(const char* method) {
  std::vector<Row> rows;
  proxy_->callMethod(method).onInterface(kInterface).storeResultsTo(rows);
  return rows;
}

std::vector<dbus::PinRow> Client::pins() { return rows_of<dbus::PinRow>("ListPins"); }
std::vector<dbus::BridgeRow> Client::bridges() { return rows_of<dbus::BridgeRow>("ListBridges"); }
std::vector<dbus::ClientRow> Client::clients() { return rows_of<dbus::ClientRow>("ListClients"); }
std::vector<dbus::SessionRow> Client::sessions() { return rows_of<dbus::SessionRow>("ListSerialSessions"); }

void Client::reload() { proxy_->callMethod("Reload").onInterface(kInterface); }

void Client::emergency_stop(const std::string& reason) {
  proxy_->callMethod("EmergencyStop").onInterface(kInterface).withArguments(reason);
}

void Client::reset_emergency_stop() { proxy_->callMethod("ResetEmergencyStop").onInterface(kInterface); }

nlohmann::json Client::safety() {
  std::string state;
  proxy_->callMethod("GetSafety").onInterface(kInterface).storeResultsTo(state);
  return nlohmann::json::parse(state, nullptr, false);
}

void Client::approve(std::uint64_t id) { proxy_->callMethod("Approve").onInterface(kInterface).withArguments(id); }
void Client::deny(std::uint64_t id) { proxy_->callMethod("Deny").onInterface(kInterface).withArguments(id); }

nlohmann::json Client::audit(std::uint64_t after) {
  std::string records;
  proxy_->callMethod("GetAudit").onInterface(kInterface).withArguments(after).storeResultsTo(records);
  return nlohmann::json::parse(records, nullptr, false);
}

// The bus announces when mcpud's name loses its owner: stop waiting then, and
// say so in `daemon_left`. Finishes the signal setup of proxy_ too.
std::unique_ptr<sdbus::IProxy> Client::stop_when_daemon_leaves(bool& daemon_left) {
  auto bus = dbus::compat::make_proxy(*connection_, "org.freedesktop.DBus", "/org/freedesktop/DBus");
  bus->uponSignal("NameOwnerChanged")
      .onInterface("org.freedesktop.DBus")
      .call([this, &daemon_left](const std::string& name, const std::string&, const std::string& new_owner) {
        if (name != dbus::kBusName || !new_owner.empty()) return;
        daemon_left = true;
        connection_->leaveEventLoop();
      });
  dbus::compat::finish_proxy(*proxy_);
  dbus::compat::finish_proxy(*bus);
  return bus;
}

bool Client::follow_audit(std::uint64_t after, std::size_t count,
                          const std::function<void(const nlohmann::json&)>& on_record) {
  std::uint64_t last = after;
  std::size_t seen = 0;
  bool done = false;
  // Records older than `last` (already printed from the ring) are skipped; a
  // jump past last + 1 is a gap, shown.
  const auto deliver = [&](const nlohmann::json& record) {
    if (done || !record.is_object()) return;
    const auto seq = record.value("seq", std::uint64_t{0});
    if (seq <= last) return;
    if (seq > last + 1) on_record({{"lost", seq - last - 1}});
    last = seq;
    on_record(record);
    if (count != 0 && ++seen >= count) {
      done = true;
      connection_->leaveEventLoop();
    }
  };
  // Subscribed before reading the ring, so nothing falls between the two.
  std::vector<nlohmann::json> early;
  bool reading = true;
  proxy_->uponSignal("AuditRecord").onInterface(kInterface).call([&](const std::string& text) {
    auto record = nlohmann::json::parse(text, nullptr, false);
    if (reading) {
      early.push_back(std::move(record));
    } else {
      deliver(record);
    }
  });
  bool daemon_left = false;
  const auto bus = stop_when_daemon_leaves(daemon_left);
  const auto ring = audit(after);
  if (const auto lost = ring.value("lost", std::uint64_t{0}); lost > 0) {
    on_record({{"lost", lost}});
    last += lost;
  }
  for (const auto& record : ring.value("records", nlohmann::json::array())) deliver(record);
  reading = false;
  for (const auto& record : early) deliver(record);
  if (!done) connection_->enterEventLoop();
  return !daemon_left;
}

bool Client::watch(std::size_t count, const std::function<void(const nlohmann::json&)>& on_event,
                   const std::function<void()>& on_ready) {
  properties();  // fails now, not never, when mcpud is not there
  std::size_t seen = 0;
  const auto deliver = [&](const nlohmann::json& event) {
    on_event(event);
    if (count != 0 && ++seen >= count) connection_->leaveEventLoop();
  };
  proxy_->uponSignal("PinEvent")
      .onInterface(kInterface)
      .call([&](std::int32_t pin, const std::string& name, const std::string& type, double value,
                std::int64_t timestamp_ms) {
        deliver({{"signal", "PinEvent"},
                 {"pin", pin},
                 {"name", name},
                 {"type", type},
                 {"value", value},
                 {"timestamp_ms", timestamp_ms}});
      });
  proxy_->uponSignal("ToolsChanged").onInterface(kInterface).call([&] { deliver({{"signal", "ToolsChanged"}}); });
  bool daemon_left = false;
  const auto bus = stop_when_daemon_leaves(daemon_left);
  on_ready();
  connection_->enterEventLoop();
  return !daemon_left;
}

}  // namespace mcpud::ctl
