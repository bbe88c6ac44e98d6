// SPDX-License-Identifier: MIT
// What a human may do about the board's safety, through the channels an agent
// cannot reach (D-Bus under the admin policy, the dashboard behind its token,
// the board's own buttons): stop everything, reset the stop, approve or deny a
// call that waits for approval, read the audit. No MCP or MCP/U door is given
// this interface. The app implements it (app/safety).
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"

namespace mcpud {

class SafetyControl {
 public:
  virtual ~SafetyControl() = default;

  // {"estop": {"active", "since_ms"?, "by"?, "reason"?}, "pending": [{"id",
  // "tool", "arguments", "door", "peer", "client", "requested_ms",
  // "expires_ms"}], "max_pending": N}
  virtual nlohmann::json state() const = 0;
  // Stops: every output to its safe value, each bridged device's own stop,
  // every actuating call refused until reset. `by` names who ("dbus uid 0").
  virtual void emergency_stop(std::string_view by, std::string_view reason) = 0;
  virtual void reset_emergency_stop(std::string_view by) = 0;
  // Lets the waiting call `id` run once, or refuses it (APPROVAL_DENIED to its
  // caller). RESOURCE_NOT_FOUND when no call waits under that id.
  virtual Result<void> approve(std::uint64_t id, std::string_view by) = 0;
  virtual Result<void> deny(std::uint64_t id, std::string_view by) = 0;
  // The audit ring after sequence number `after` (AuditLog::since).
  virtual nlohmann::json audit_since(std::uint64_t after) const = 0;
};

// The state() anyone may see (mcpu://daemon/safety): the waiting calls
// without their arguments, which only the channels above show.
inline nlohmann::json without_arguments(nlohmann::json state) {
  if (auto pending = state.find("pending"); pending != state.end() && pending->is_array())
    for (auto& call : *pending) call.erase("arguments");
  return state;
}

}  // namespace mcpud
