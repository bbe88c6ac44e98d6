// SPDX-License-Identifier: MIT
// The requests in flight to one device, matched to replies by id: fresh small
// integer ids, a deadline per request, and the reference firmware's id-0 parse
// error handled by resending the one request it must have been. Pure logic, no
// I/O; single-threaded.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcpud/core/tool.hpp"

namespace mcpud::bridge {

class CallTable {
 public:
  using Clock = std::chrono::steady_clock;

  struct Call {
    std::int64_t id = 0;
    std::string line;  // the request as sent (with its "\n"), for a resend
    ToolReply reply;
    Clock::time_point deadline;
    bool resent = false;
    std::string unread_error;            // the device's id-0 error that came after the resend, if any
    std::size_t dropped_line_bytes = 0;  // a line too long to read that came while this call waited
  };

  // AVR firmware reads ids into a 16-bit int: keep them in 1..kMaxId.
  static constexpr std::int64_t kMaxId = 30000;

  explicit CallTable(std::size_t max_in_flight) : max_in_flight_(max_in_flight) {}

  bool full() const { return calls_.size() >= max_in_flight_; }
  std::size_t size() const { return calls_.size(); }

  // An id not in flight; wraps after kMaxId.
  std::int64_t next_id();
  void insert(Call call);
  // The call a reply with `id` answers; nullopt for an id we are not waiting on.
  std::optional<Call> take(std::int64_t id);

  // An id-0 parse error (`device_message`) arrived. With exactly one call in
  // flight that was not yet resent, returns its line (marked resent) so the
  // caller writes it again; otherwise nullopt. Firmware that reads a request in
  // two pieces answers each piece with an id-0 error, so errors after the resend
  // are expected: they are remembered on the call (for its timeout message) and
  // never fail it; the reply to the resend, or the deadline, ends it.
  std::optional<std::string> resend_after_id_zero_error(std::string_view device_message);

  // A line too long to read (`bytes` long) arrived. With exactly one call in
  // flight it was that call's reply: removes and returns the call, for the
  // caller to fail. With more, which one it answered is unknown: each call
  // remembers the line for its timeout message, and nullopt is returned.
  std::optional<Call> take_after_overlong_line(std::size_t bytes);

  // Removes and returns the calls whose deadline is not after `now`.
  std::vector<Call> take_expired(Clock::time_point now);
  std::vector<Call> take_all();
  std::optional<Clock::time_point> earliest_deadline() const;

 private:
  std::size_t max_in_flight_;
  std::map<std::int64_t, Call> calls_;
  std::int64_t last_id_ = 0;
};

}  // namespace mcpud::bridge
