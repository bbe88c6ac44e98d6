// SPDX-License-Identifier: MIT
// Call records into the activity history.
#include "mcpud/core/activity_log.hpp"

namespace mcpud {
namespace {

std::int64_t epoch_ms(std::chrono::system_clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

nlohmann::json error_json(const Error& error) {
  nlohmann::json out = {{"code", error.code}, {"message", error.message}};
  if (!error.name.empty()) out["name"] = error.name;
  return out;
}

}  // namespace

void ActivityLog::on_call(const CallRecord& call) {
  nlohmann::json entry = {{"time_ms", epoch_ms(call.started)},
                          {"door", call.caller.door},
                          {"client", call.caller.label()},
                          {"tool", call.tool},
                          {"ok", call.outcome.has_value()},
                          {"duration_ms", std::chrono::duration<double, std::milli>(call.duration).count()}};
  if (details_) entry["arguments"] = bounded_copy(call.arguments, kValueBytes);
  if (!call.outcome)
    entry["error"] = error_json(call.outcome.error());
  else if (details_)
    entry["result"] = bounded_copy(*call.outcome, kValueBytes);
  recent_.add(std::string(call.tool), std::move(entry));
}

}  // namespace mcpud
