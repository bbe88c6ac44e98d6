// SPDX-License-Identifier: MIT
// sdbus-c++ 2.x (Debian 13): strong name types, vtables added in one call,
// processPendingEvent, an extra event fd in the poll data, messages by value.
// Written against the 2.x headers and documentation; CI builds only 1.x.
#include <poll.h>

#include "control_handlers.hpp"
#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus::compat {
namespace {

using sdbus::Flags;

class ControlObject2 final : public ControlObject {
 public:
  ControlObject2(sdbus::IConnection& connection, Control& control, std::function<void()> sent)
      : object_(sdbus::createObject(connection, sdbus::ObjectPath{kObjectPath})),
        handlers_(
            control, [this] { return caller(); }, std::move(sent)) {
    auto& h = handlers_;
    object_
        ->addVTable(
            sdbus::registerMethod(sdbus::MethodName{"GetInfo"}).withOutputParamNames("info").implementedAs([&h] {
              return h.get_info();
            }),
            sdbus::registerMethod(sdbus::MethodName{"ListTools"})
                .withInputParamNames("with_user_tools")
                .withOutputParamNames("tools")
                .implementedAs([&h](bool with_user_tools) { return h.list_tools(with_user_tools); }),
            sdbus::registerMethod(sdbus::MethodName{"CallTool"})
                .withInputParamNames("name", "arguments_json")
                .withOutputParamNames("result_json")
                .implementedAs([&h](sdbus::Result<std::string>&& result, std::string name, std::string arguments) {
                  h.call_tool(std::move(result), name, arguments);
                }),
            sdbus::registerMethod(sdbus::MethodName{"Ask"})
                .withInputParamNames("text")
                .withOutputParamNames("reply")
                .implementedAs(
                    [&h](sdbus::Result<std::string>&& result, std::string text) { h.ask(std::move(result), text); }),
            sdbus::registerMethod(sdbus::MethodName{"ListPins"}).withOutputParamNames("pins").implementedAs([&h] {
              return h.list_pins();
            }),
            sdbus::registerMethod(sdbus::MethodName{"ListBridges"}).withOutputParamNames("bridges").implementedAs([&h] {
              return h.list_bridges();
            }),
            sdbus::registerMethod(sdbus::MethodName{"ListClients"}).withOutputParamNames("clients").implementedAs([&h] {
              return h.list_clients();
            }),
            sdbus::registerMethod(sdbus::MethodName{"ListSerialSessions"})
                .withOutputParamNames("sessions")
                .implementedAs([&h](sdbus::Result<std::vector<SessionRow>>&& result) {
                  h.list_serial_sessions(std::move(result));
                }),
            sdbus::registerMethod(sdbus::MethodName{"Reload"}).implementedAs([&h] { h.reload(); }),
            sdbus::registerMethod(sdbus::MethodName{"EmergencyStop"})
                .withInputParamNames("reason")
                .implementedAs([&h](const std::string& reason) { h.emergency_stop(reason); }),
            sdbus::registerMethod(sdbus::MethodName{"ResetEmergencyStop"}).implementedAs([&h] {
              h.reset_emergency_stop();
            }),
            sdbus::registerMethod(sdbus::MethodName{"GetSafety"})
                .withOutputParamNames("state_json")
                .implementedAs([&h] { return h.get_safety(); }),
            sdbus::registerMethod(sdbus::MethodName{"Approve"})
                .withInputParamNames("id")
                .implementedAs([&h](std::uint64_t id) { h.approve(id); }),
            sdbus::registerMethod(sdbus::MethodName{"Deny"})
                .withInputParamNames("id")
                .implementedAs([&h](std::uint64_t id) { h.deny(id); }),
            sdbus::registerMethod(sdbus::MethodName{"GetAudit"})
                .withInputParamNames("after_seq")
                .withOutputParamNames("audit_json")
                .implementedAs([&h](std::uint64_t after) { return h.get_audit(after); }),
            sdbus::registerSignal(sdbus::SignalName{"PinEvent"})
                .withParameters<std::int32_t, std::string, std::string, double, std::int64_t>("pin", "name", "type",
                                                                                              "value", "timestamp_ms"),
            sdbus::registerSignal(sdbus::SignalName{"ToolsChanged"}),
            sdbus::registerSignal(sdbus::SignalName{"AuditRecord"}).withParameters<std::string>("record_json"),
            sdbus::registerProperty(sdbus::PropertyName{"Version"})
                .withGetter([&h] { return h.version(); })
                .withUpdateBehavior(Flags::CONST_PROPERTY_VALUE),
            sdbus::registerProperty(sdbus::PropertyName{"DeviceName"})
                .withGetter([&h] { return h.device_name(); })
                .withUpdateBehavior(Flags::EMITS_NO_SIGNAL),
            sdbus::registerProperty(sdbus::PropertyName{"Uptime"})
                .withGetter([&h] { return h.uptime(); })
                .withUpdateBehavior(Flags::EMITS_NO_SIGNAL),
            sdbus::registerProperty(sdbus::PropertyName{"ClientCount"})
                .withGetter([&h] { return h.client_count(); })
                .withUpdateBehavior(Flags::EMITS_NO_SIGNAL))
        .forInterface(sdbus::InterfaceName{kInterface});
  }

  void emit_pin_event(std::int32_t pin, const std::string& name, const std::string& type, double value,
                      std::int64_t timestamp_ms) override {
    object_->emitSignal(sdbus::SignalName{"PinEvent"})
        .onInterface(sdbus::InterfaceName{kInterface})
        .withArguments(pin, name, type, value, timestamp_ms);
  }
  void emit_tools_changed() override {
    object_->emitSignal(sdbus::SignalName{"ToolsChanged"}).onInterface(sdbus::InterfaceName{kInterface});
  }
  void emit_audit_record(const std::string& record_json) override {
    object_->emitSignal(sdbus::SignalName{"AuditRecord"})
        .onInterface(sdbus::InterfaceName{kInterface})
        .withArguments(record_json);
  }

 private:
  BusCaller caller() const {
    try {
      const sdbus::Message message = object_->getCurrentlyProcessedMessage();
      return {message.getCredsUid()};
    } catch (const sdbus::Error&) {
      return {};  // unknown caller: treated as unprivileged
    }
  }

  std::unique_ptr<sdbus::IObject> object_;
  ControlHandlers handlers_;
};

}  // namespace

std::unique_ptr<sdbus::IConnection> connect(BusKind kind) {
  return kind == BusKind::System ? sdbus::createSystemBusConnection() : sdbus::createSessionBusConnection();
}

void request_name(sdbus::IConnection& connection, const std::string& name) {
  connection.requestName(sdbus::ServiceName{name});
}

PollData poll_data(const sdbus::IConnection& connection) {
  const auto data = connection.getEventLoopPollData();
  PollData out{data.fd, data.events, data.eventFd, std::nullopt};
  if (const auto relative = data.getRelativeTimeout(); relative != std::chrono::microseconds::max()) {
    out.timeout = relative;
  }
  return out;
}

bool process_one(sdbus::IConnection& connection) { return connection.processPendingEvent(); }

std::unique_ptr<ControlObject> export_control(sdbus::IConnection& connection, Control& control,
                                              std::function<void()> sent) {
  return std::make_unique<ControlObject2>(connection, control, std::move(sent));
}

std::unique_ptr<sdbus::IProxy> make_proxy(sdbus::IConnection& connection, const std::string& destination,
                                          const std::string& path) {
  return sdbus::createProxy(connection, sdbus::ServiceName{destination}, sdbus::ObjectPath{path});
}

void finish_proxy(sdbus::IProxy&) {}  // 2.x: signal subscriptions are active at once

sdbus::Slot add_match(sdbus::IConnection& connection, const std::string& rule,
                      std::function<void(sdbus::Message&)> handler) {
  return connection.addMatch(
      rule, [handler = std::move(handler)](sdbus::Message message) { handler(message); }, sdbus::return_slot);
}

std::string error_name(const sdbus::Error& error) { return error.getName(); }

sdbus::Error make_error(const std::string& name, const std::string& message) {
  return sdbus::Error(sdbus::Error::Name{name}, message);
}

}  // namespace mcpud::dbus::compat
