// SPDX-License-Identifier: MIT
// The limits a human set on the board's outputs, which every write of a
// limited output passes through and no client can get past: release when its
// client goes, leases, on and off times, pulses, rate, range and interlocks
// (docs/safety.md). Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/tool.hpp"

namespace mcpud::pins {

struct BoardPin;
class PinTable;

// The guard's view of time: a steady clock and one wake-up at a time, so that
// tests drive it without the event loop's timers.
class GuardClock {
 public:
  virtual ~GuardClock() = default;
  virtual std::int64_t now_ms() const = 0;  // steady, in ms
  // Asks for OutputGuard::expire() at `at_ms` (now_ms's clock), replacing the
  // wake-up asked for before; nullopt: no wake-up.
  virtual void wake_at(std::optional<std::int64_t> at_ms) = 0;
  // Runs `work` soon, outside the caller's stack (a departing client's identity
  // tells the guard from inside its destructor).
  virtual void defer(std::function<void()> work) = 0;
};

// One write a client asks for.
struct OutputWrite {
  int value = 0;                              // 0 or 1 for a digital output, the duty 0-255 for a pwm output
  std::optional<std::uint32_t> frequency_hz;  // pwm_output
  std::uint32_t hold_ms = 0;                  // > 0: back to safe after this long (a pulse)
  bool dry_run = false;                       // check everything, change nothing
};

// What a write did (or in a dry run would do) besides setting the value.
struct WriteOutcome {
  std::uint32_t reverts_after_ms = 0;  // 0: it stays
  std::string revert_reason;           // "hold", "max_on", "lease"
};

class OutputGuard {
 public:
  // Borrows both (`events` nullable); they must outlive the guard.
  OutputGuard(GuardClock& clock, EventHub* events);
  ~OutputGuard();
  OutputGuard(const OutputGuard&) = delete;
  OutputGuard& operator=(const OutputGuard&) = delete;

  // Guards the outputs of `table` (which must outlive the guard or the next
  // adopt/detach): those with limits or a safe value, marked BoardPin::guarded.
  // An output kept across a reload (same name and type) keeps its state
  // (since when it is away from safe, who drove it) under its new limits: a
  // tightened max_on_ms ends an output already on too long at once.
  void adopt(PinTable& table);
  // Forgets the table (before it is destroyed) and stops every timer.
  void detach();

  // Checks `write` of `pin` (a guarded output) against its limits and the
  // other outputs' state, then drives it (unless a dry run). Errors:
  // OUT_OF_RANGE, RATE_LIMITED and MIN_OFF_TIME (with retry_after_ms),
  // INTERLOCK naming the other output, INVALID_ARGUMENT, WRITE_ERROR.
  Result<WriteOutcome> write(BoardPin& pin, const OutputWrite& write, const Caller& caller);

  // The wake-up asked of the clock came: ends pulses, leases and on times due now.
  void expire();
  // Drives every guarded output to its safe value and forgets leases, holders
  // and timers (the emergency stop); `reason` goes into each SafetyAction.
  void release_all(std::string reason);

  // `pin`'s limits ({} when none) and, while set, its live state: on_since_ms,
  // lease_expires_ms, reverts_at_ms (Unix ms), holder.
  nlohmann::json describe(const BoardPin& pin) const;
  // "heater: max 10 min on, 1 min off between; pump: ..." for every limited
  // output of the table, for the write tools' descriptions; `pwm` picks pwm
  // outputs, else digital ones.
  std::string summary(const PinTable& table, bool pwm) const;

  // Whether a wake-up is asked for: none while every output is at its safe value.
  bool timer_armed() const { return armed_.has_value(); }

 private:
  struct Output;
  Output* find(const BoardPin& pin);
  const Output* find(const BoardPin& pin) const;
  bool away(const Output& output) const;
  void revert(Output& output, const std::string& action, const std::string& reason);
  void revert_dependents(const Output& output, const std::string& why);
  void drive(Output& output, int value);
  void clients_gone();
  void reschedule();
  std::optional<std::pair<std::int64_t, const char*>> next_deadline(const Output& output) const;
  Result<void> check(const Output& output, const OutputWrite& write) const;
  void publish(const Output& output, const std::string& action, const std::string& reason,
               const std::string& client) const;

  GuardClock& clock_;
  EventHub* events_;
  std::int64_t unix_offset_ms_;  // Unix time minus the clock's, fixed at start: times shown stay consistent
  std::map<std::string, std::unique_ptr<Output>, std::less<>> outputs_;
  std::optional<std::int64_t> armed_;
  // Shared with the hooks left on client identities, which may outlive the guard.
  std::shared_ptr<OutputGuard*> self_;
};

}  // namespace mcpud::pins
