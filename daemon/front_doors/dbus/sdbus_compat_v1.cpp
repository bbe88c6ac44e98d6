// SPDX-License-Identifier: MIT
// sdbus-c++ 1.x (Debian 12): connection, poll data, the exported object and proxies.
#include <poll.h>

#include "control_handlers.hpp"
#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus::compat {
namespace {

using sdbus::Flags;

class ControlObject1 final : public ControlObject {
 public:
  ControlObject1(sdbus::IConnection& connection, Control& control, std::function<void()> sent)
      : object_(sdbus::createObject(connection, kObjectPath)),
        handlers_(
            control, [this] { return caller(); }, std::move(sent)) {
    register_methods();
    register_properties();
    object_->registerSignal("PinEvent")
        .onInterface(kInterface)
        .withParameters<std::int32_t, std::string, std::string, double, std::int64_t>("pin", "name", "type", "value",
                                                                                      "timestamp_ms");
    object_->registerSignal("ToolsChanged").onInterface(kInterface);
    object_->registerSignal("AuditRecord").onInterface(kInterface).withParameters<std::string>("record_json");
    object_->finishRegistration();
  }

  void emit_pin_event(std::int32_t pin, const std::string& name, const std::string& type, double value,
                      std::int64_t timestamp_ms) override {
    object_->emitSignal("PinEvent").onInterface(kInterface).withArguments(pin, name, type, value, timestamp_ms);
  }
  void emit_tools_changed() override { object_->emitSignal("ToolsChanged").onInterface(kInterface); }
  void emit_audit_record(const std::string& record_json) override {
    object_->emitSignal("AuditRecord").onInterface(kInterface).withArguments(record_json);
  }

 private:
  BusCaller caller() const {
    try {
      const sdbus::Message* message = object_->getCurrentlyProcessedMessage();
      if (message != nullptr) return {message->getCredsUid()};
    } catch (const sdbus::Error&) {
      // Unknown caller: treated as unprivileged.
    }
    return {};
  }

  void register_methods() {
    auto& h = handlers_;
    auto& o = *object_;
    o.registerMethod("GetInfo").onInterface(kInterface).withOutputParamNames("info").implementedAs([&h] {
      return h.get_info();
    });
    o.registerMethod("ListTools")
        .onInterface(kInterface)
        .withInputParamNames("with_user_tools")
        .withOutputParamNames("tools")
        .implementedAs([&h](bool with_user_tools) { return h.list_tools(with_user_tools); });
    o.registerMethod("CallTool")
        .onInterface(kInterface)
        .withInputParamNames("name", "arguments_json")
        .withOutputParamNames("result_json")
        .implementedAs([&h](sdbus::Result<std::string>&& result, const std::string& name,
                            const std::string& arguments) { h.call_tool(std::move(result), name, arguments); });
    o.registerMethod("Ask")
        .onInterface(kInterface)
        .withInputParamNames("text")
        .withOutputParamNames("reply")
        .implementedAs(
            [&h](sdbus::Result<std::string>&& result, const std::string& text) { h.ask(std::move(result), text); });
    o.registerMethod("ListPins").onInterface(kInterface).withOutputParamNames("pins").implementedAs([&h] {
      return h.list_pins();
    });
    o.registerMethod("ListBridges").onInterface(kInterface).withOutputParamNames("bridges").implementedAs([&h] {
      return h.list_bridges();
    });
    o.registerMethod("ListClients").onInterface(kInterface).withOutputParamNames("clients").implementedAs([&h] {
      return h.list_clients();
    });
    o.registerMethod("ListSerialSessions")
        .onInterface(kInterface)
        .withOutputParamNames("sessions")
        .implementedAs(
            [&h](sdbus::Result<std::vector<SessionRow>>&& result) { h.list_serial_sessions(std::move(result)); });
    o.registerMethod("Reload").onInterface(kInterface).implementedAs([&h] { h.reload(); });
    o.registerMethod("EmergencyStop")
        .onInterface(kInterface)
        .withInputParamNames("reason")
        .implementedAs([&h](const std::string& reason) { h.emergency_stop(reason); });
    o.registerMethod("ResetEmergencyStop").onInterface(kInterface).implementedAs([&h] { h.reset_emergency_stop(); });
    o.registerMethod("GetSafety").onInterface(kInterface).withOutputParamNames("state_json").implementedAs([&h] {
      return h.get_safety();
    });
    o.registerMethod("Approve").onInterface(kInterface).withInputParamNames("id").implementedAs([&h](std::uint64_t id) {
      h.approve(id);
    });
    o.registerMethod("Deny").onInterface(kInterface).withInputParamNames("id").implementedAs([&h](std::uint64_t id) {
      h.deny(id);
    });
    o.registerMethod("GetAudit")
        .onInterface(kInterface)
        .withInputParamNames("after_seq")
        .withOutputParamNames("audit_json")
        .implementedAs([&h](std::uint64_t after) { return h.get_audit(after); });
  }

  void register_properties() {
    auto& h = handlers_;
    auto& o = *object_;
    const auto property = [&o](const char* name, auto getter, Flags::PropertyUpdateBehaviorFlags update) {
      o.registerProperty(name).onInterface(kInterface).withGetter(std::move(getter)).withUpdateBehavior(update);
    };
    property(
        "Version", [&h] { return h.version(); }, Flags::CONST_PROPERTY_VALUE);
    property(
        "DeviceName", [&h] { return h.device_name(); }, Flags::EMITS_NO_SIGNAL);
    property(
        "Uptime", [&h] { return h.uptime(); }, Flags::EMITS_NO_SIGNAL);
    property(
        "ClientCount", [&h] { return h.client_count(); }, Flags::EMITS_NO_SIGNAL);
  }

  std::unique_ptr<sdbus::IObject> object_;
  ControlHandlers handlers_;
};

}  // namespace

std::unique_ptr<sdbus::IConnection> connect(BusKind kind) {
  return kind == BusKind::System ? sdbus::createSystemBusConnection() : sdbus::createSessionBusConnection();
}

void request_name(sdbus::IConnection& connection, const std::string& name) { connection.requestName(name); }

PollData poll_data(const sdbus::IConnection& connection) {
  const auto data = connection.getEventLoopPollData();
  return {data.fd, data.events, -1, data.getRelativeTimeout()};
}

bool process_one(sdbus::IConnection& connection) { return connection.processPendingRequest(); }

std::unique_ptr<ControlObject> export_control(sdbus::IConnection& connection, Control& control,
                                              std::function<void()> sent) {
  return std::make_unique<ControlObject1>(connection, control, std::move(sent));
}

std::unique_ptr<sdbus::IProxy> make_proxy(sdbus::IConnection& connection, const std::string& destination,
                                          const std::string& path) {
  return sdbus::createProxy(connection, destination, path);
}

void finish_proxy(sdbus::IProxy& proxy) { proxy.finishRegistration(); }

sdbus::Slot add_match(sdbus::IConnection& connection, const std::string& rule,
                      std::function<void(sdbus::Message&)> handler) {
  return connection.addMatch(rule, std::move(handler));
}

std::string error_name(const sdbus::Error& error) { return error.getName(); }

sdbus::Error make_error(const std::string& name, const std::string& message) { return sdbus::Error(name, message); }

}  // namespace mcpud::dbus::compat
