// SPDX-License-Identifier: MIT
// The activity feed: every tool call from every client (door, client, tool,
// outcome, duration, and with show_details its arguments and result), kept in a
// bounded history and published as EventKind::ToolCalled. Calls are recorded only while some subscriber wants
// them, so an unwatched daemon pays nothing per call. Single-threaded.
#pragma once

#include "mcpud/core/call_observer.hpp"
#include "mcpud/core/recent_events.hpp"

namespace mcpud {

class ActivityLog final : public CallObserver {
 public:
  static constexpr std::size_t kCapacity = 100;     // calls kept
  static constexpr std::size_t kValueBytes = 1024;  // arguments or result kept per call

  // Borrows `hub`, which must outlive this log.
  explicit ActivityLog(EventHub& hub) : recent_(hub, EventKind::ToolCalled, kCapacity) {}

  bool wants_calls() const override { return recent_.wanted(); }
  void on_call(const CallRecord& call) override;
  // Whether calls from now on are recorded with their arguments and result.
  // Off by default: every client that may read resources reads the feed,
  // on doors without authentication too, and one client's arguments (a
  // serial line it wrote, an I2C payload) are not every client's business.
  void show_details(bool shown) { details_ = shown; }
  // The calls kept: {entries: [{seq, time_ms, door, client, tool, arguments?,
  // ok, result? | error, duration_ms}], next_seq, dropped}.
  nlohmann::json snapshot() const { return recent_.snapshot(); }

 private:
  RecentEvents recent_;
  bool details_ = false;
};

}  // namespace mcpud
