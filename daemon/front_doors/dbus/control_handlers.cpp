// SPDX-License-Identifier: MIT
// Adapts Control's value-returning calls to sdbus-c++ handlers.
#include "control_handlers.hpp"

#include <memory>

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

}  // namespace mcpud::dbus
