// SPDX-License-Identifier: MIT
// Adapts Control's value-returning calls to sdbus-c++ handlers.
#include "control_handlers.hpp"

#include <memory>
#include <type_traits>

#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus {
namespace {

// Replies through a shared sdbus::Result (it is move-only; the tool reply may
// be copied), then lets the event loop flush the reply.
template <class T>
BusReply<T> reply_through(sdbus::Result<T>&& result, std::function<void()> sent) {
  auto shared = std::make_shared<sdbus::Result<T>>(std::move(result));
  return [shared, sent = std::move(sent)](BusResult<T> outcome) {
    try {
      if (outcome) {
        shared->returnResults(*outcome);
      } else {
        shared->returnError(compat::make_error(outcome.error().name, outcome.error().message));
      }
    } catch (const sdbus::Error&) {
      // The caller is gone or the reply could not be built: nobody to tell.
    }
    sent();
  };
}

// The value of a synchronous method, or its error thrown as sdbus expects.
template <class T>
T returned(BusResult<T> result) {
  if (!result) throw compat::make_error(result.error().name, result.error().message);
  if constexpr (!std::is_void_v<T>) return std::move(*result);
}

}  // namespace

ControlHandlers::ControlHandlers(Control& control, std::function<BusCaller()> caller, std::function<void()> sent)
    : control_(control), caller_(std::move(caller)), sent_(std::move(sent)) {}

void ControlHandlers::call_tool(sdbus::Result<std::string>&& result, const std::string& name,
                                const std::string& arguments_json) {
  control_.call_tool(caller_, name, arguments_json, reply_through(std::move(result), sent_));
}

void ControlHandlers::ask(sdbus::Result<std::string>&& result, const std::string& text) {
  control_.ask(text, reply_through(std::move(result), sent_));
}

void ControlHandlers::list_serial_sessions(sdbus::Result<std::vector<SessionRow>>&& result) {
  control_.serial_sessions(reply_through(std::move(result), sent_));
}

void ControlHandlers::reload() {
  if (auto reloaded = control_.reload(); !reloaded) {
    throw compat::make_error(reloaded.error().name, reloaded.error().message);
  }
}

void ControlHandlers::emergency_stop(const std::string& reason) {
  returned(control_.emergency_stop(caller_(), reason));
}
void ControlHandlers::reset_emergency_stop() { returned(control_.reset_emergency_stop(caller_())); }
std::string ControlHandlers::get_safety() { return returned(control_.safety_state()); }
void ControlHandlers::approve(std::uint64_t id) { returned(control_.approve(caller_(), id)); }
void ControlHandlers::deny(std::uint64_t id) { returned(control_.deny(caller_(), id)); }
std::string ControlHandlers::get_audit(std::uint64_t after) { return returned(control_.audit(after)); }

}  // namespace mcpud::dbus
