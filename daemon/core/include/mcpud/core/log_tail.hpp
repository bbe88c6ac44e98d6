// SPDX-License-Identifier: MIT
// The last lines of the daemon's log (the same lines the journal gets), kept in
// a bounded history for clients and published as EventKind::LogLine while
// someone wants them. Taps the logger while it lives. Single-threaded.
#pragma once

#include "mcpud/core/log.hpp"
#include "mcpud/core/recent_events.hpp"

namespace mcpud {

class LogTail {
 public:
  static constexpr std::size_t kCapacity = 200;    // lines kept
  static constexpr std::size_t kLineBytes = 1024;  // longer messages are cut

  // Borrows `hub`, which must outlive this tail. Becomes the logger's tap.
  explicit LogTail(EventHub& hub);
  ~LogTail();
  LogTail(const LogTail&) = delete;
  LogTail& operator=(const LogTail&) = delete;

  void add(log::Level at, std::string_view category, std::string_view message);
  // {entries: [{seq, time_ms, level, category, message}], next_seq, dropped}
  nlohmann::json snapshot() const { return recent_.snapshot(); }

 private:
  RecentEvents recent_;
};

}  // namespace mcpud
