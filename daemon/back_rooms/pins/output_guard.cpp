// SPDX-License-Identifier: MIT
// The output guard: limit checks before a write, and the timers and client
// departures that bring outputs back to their safe values.
#include "mcpud/pins/output_guard.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mcpud/core/log.hpp"
#include "mcpud/pins/pin_table.hpp"

namespace mcpud::pins {

using nlohmann::json;

struct OutputGuard::Output {
  BoardPin* pin = nullptr;  // null between detach() and adopt()
  std::string name;
  bool pwm = false;
  OutputLimits limits;
  std::optional<int> safe;                // the safe value (0/1) or duty (0-255)
  int value = 0;                          // the value last driven
  std::vector<std::string> exclusive;     // its own exclusive_with and every output naming it there
  std::int64_t on_since = 0;              // while away from safe
  std::optional<std::int64_t> off_since;  // since it last returned to safe
  std::optional<std::int64_t> lease_until;
  std::optional<std::int64_t> hold_until;
  // Who drove it away from safe last: an agent's identity (released when it
  // goes), or a person (no identity, or D-Bus).
  std::weak_ptr<ClientIdentity> holder;
  bool agent = false;
  std::string holder_label;
  std::weak_ptr<ClientIdentity> hooked;  // the identity last told to report its departure
  std::deque<std::int64_t> writes;       // times of the writes within the last second
};

namespace {

constexpr std::int64_t kRateWindowMs = 1000;

// "600 ms", "5 s", "10 min": how an agent reads a limit.
std::string duration_text(std::uint32_t ms) {
  if (ms % 60000 == 0) return std::to_string(ms / 60000) + " min";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms) + " ms";
}

std::string value_text(bool pwm, int value) {
  return pwm ? "duty " + std::to_string(value) : (value != 0 ? "true" : "false");
}

json value_json(bool pwm, int value) { return pwm ? json(value) : json(value != 0); }

// A person's call: mcpud's own, or mcpuctl over D-Bus (whose identity is the
// bus's, never gone). Their writes hold: no release, no lease.
bool from_a_person(const Caller& caller) { return !caller.identity || caller.door == "dbus"; }

std::int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::optional<int> current_value(const BoardPin& pin) {
  if (pin.output) {
    auto level = pin.output->read();
    return level ? std::optional<int>(*level ? 1 : 0) : std::nullopt;
  }
  if (pin.pwm) return static_cast<int>(std::lround(pin.pwm->state().duty * 255.0));
  return std::nullopt;
}

std::optional<int> safe_value_of(const PinConfig& c) {
  if (c.type == hal::PinType::PwmOutput)
    return c.safe_duty ? std::optional<int>(static_cast<int>(std::lround(*c.safe_duty))) : std::nullopt;
  return c.safe_value ? std::optional<int>(*c.safe_value ? 1 : 0) : std::nullopt;
}

}  // namespace

OutputGuard::OutputGuard(GuardClock& clock, EventHub* events)
    : clock_(clock),
      events_(events),
      unix_offset_ms_(unix_now_ms() - clock.now_ms()),
      self_(std::make_shared<OutputGuard*>(this)) {}

OutputGuard::~OutputGuard() {
  *self_ = nullptr;
  clock_.wake_at(std::nullopt);
}

OutputGuard::Output* OutputGuard::find(const BoardPin& pin) {
  const auto it = outputs_.find(pin.name());
  return it == outputs_.end() || it->second->pin != &pin ? nullptr : it->second.get();
}

const OutputGuard::Output* OutputGuard::find(const BoardPin& pin) const {
  const auto it = outputs_.find(pin.name());
  return it == outputs_.end() || it->second->pin != &pin ? nullptr : it->second.get();
}

bool OutputGuard::away(const Output& output) const { return output.safe && output.value != *output.safe; }

void OutputGuard::adopt(PinTable& table) {
  // Outputs another one names in an interlock are watched even without limits of their own.
  std::map<std::string, std::vector<std::string>, std::less<>> named_by;
  for (const auto& pin : table.pins()) {
    for (const auto& other : pin->config.limits.exclusive_with) named_by[other].push_back(pin->name());
    if (!pin->config.limits.required.empty()) named_by[pin->config.limits.required];
  }
  const auto now = clock_.now_ms();
  std::map<std::string, std::unique_ptr<Output>, std::less<>> adopted;
  for (const auto& pin : table.pins()) {
    const auto& c = pin->config;
    const bool output = c.type == hal::PinType::DigitalOutput || c.type == hal::PinType::PwmOutput;
    if (!output || !pin->device.empty()) continue;
    const auto safe = safe_value_of(c);
    if (!c.limits.any() && !safe && !named_by.contains(c.name)) continue;
    auto state = std::make_unique<Output>();
    if (auto kept = outputs_.find(c.name);
        kept != outputs_.end() && kept->second->pwm == (c.type == hal::PinType::PwmOutput))
      state = std::move(kept->second);
    const bool was_away = away(*state);  // before the reload (a new state is at no value: not away)
    state->pin = pin.get();
    state->name = c.name;
    state->pwm = c.type == hal::PinType::PwmOutput;
    state->limits = c.limits;
    state->safe = safe;
    state->value = current_value(*pin).value_or(safe.value_or(0));
    state->exclusive = c.limits.exclusive_with;
    if (auto more = named_by.find(c.name); more != named_by.end()) {
      for (const auto& other : more->second) {
        if (std::find(state->exclusive.begin(), state->exclusive.end(), other) == state->exclusive.end())
          state->exclusive.push_back(other);
      }
    }
    // The new table drove its initial values: an output away from safe now is
    // on since now, unless it was already before the reload.
    if (away(*state) && !was_away) state->on_since = now;
    if (!away(*state)) {
      state->lease_until.reset();
      state->hold_until.reset();
    }
    if (!c.limits.lease_ms) state->lease_until.reset();
    pin->guarded = true;
    adopted[c.name] = std::move(state);
  }
  outputs_ = std::move(adopted);
  table.set_guard(this);
  for (const auto& [name, state] : outputs_) {
    const auto& required = state->limits.required;
    if (required.empty() || !away(*state)) continue;
    if (auto it = outputs_.find(required); it != outputs_.end() && !away(*it->second))
      revert(*state, "interlock", "'" + required + "' is at its safe value (requires)");
  }
  expire();  // limits tightened by a reload apply at once to outputs already on
}

void OutputGuard::detach() {
  for (auto& [name, state] : outputs_) state->pin = nullptr;
  armed_.reset();
  clock_.wake_at(std::nullopt);
}

Result<void> OutputGuard::check(const Output& o, const OutputWrite& w) const {
  const auto now = clock_.now_ms();
  const bool to_safe = o.safe && w.value == *o.safe;
  const auto refused = [&](DomainError kind, std::string message, std::int64_t retry = 0) {
    auto error = Error::domain(kind, o.name + ": " + std::move(message));
    error.retry_after_ms = static_cast<std::uint32_t>(std::max<std::int64_t>(retry, 0));
    return std::unexpected(std::move(error));
  };
  if (w.hold_ms && !o.safe)
    return refused(DomainError::InvalidArgument, "hold_ms needs a safe value to return to, and this output has none");
  if (w.hold_ms && to_safe)
    return refused(DomainError::InvalidArgument, "hold_ms: the write is to the safe value already");
  if (w.hold_ms && o.limits.max_on_ms && w.hold_ms > o.limits.max_on_ms)
    return refused(DomainError::OutOfRange, "hold_ms " + std::to_string(w.hold_ms) + " is longer than max_on_ms " +
                                                std::to_string(o.limits.max_on_ms));
  // Going to the safe value is never refused.
  if (to_safe) return {};
  const auto& l = o.limits;
  if (o.pwm && ((l.min_duty && w.value < *l.min_duty) || (l.max_duty && w.value > *l.max_duty))) {
    std::string safe = o.safe ? "; its safe duty " + std::to_string(*o.safe) + " is always allowed" : "";
    return refused(DomainError::OutOfRange, "duty " + std::to_string(w.value) + " is outside the allowed range " +
                                                std::to_string(l.min_duty.value_or(0)) + "-" +
                                                std::to_string(l.max_duty.value_or(255)) + " (min_duty, max_duty)" +
                                                safe);
  }
  if (l.max_writes_per_s) {
    const auto recent = static_cast<std::size_t>(
        std::count_if(o.writes.begin(), o.writes.end(), [&](auto t) { return t > now - kRateWindowMs; }));
    if (recent >= l.max_writes_per_s) {
      const auto oldest = o.writes[o.writes.size() - recent];
      return refused(DomainError::RateLimited,
                     "more than " + std::to_string(l.max_writes_per_s) + " writes in a second (max_writes_per_s)",
                     oldest + kRateWindowMs - now);
    }
  }
  if (!away(o) && l.min_off_ms && o.off_since && now < *o.off_since + l.min_off_ms) {
    const auto wait = *o.off_since + l.min_off_ms - now;
    return refused(DomainError::MinOffTime,
                   "back at its safe value " + std::to_string(now - *o.off_since) + " ms ago; min_off_ms is " +
                       std::to_string(l.min_off_ms) + ": try again in " + std::to_string(wait) + " ms",
                   wait);
  }
  for (const auto& other : o.exclusive) {
    const auto it = outputs_.find(other);
    if (it != outputs_.end() && away(*it->second))
      return refused(DomainError::Interlock, "not while '" + other +
                                                 "' is away from its safe value (exclusive_with); "
                                                 "set '" +
                                                 other + "' to its safe value first");
  }
  if (!l.required.empty()) {
    const auto it = outputs_.find(l.required);
    if (it == outputs_.end() || !away(*it->second))
      return refused(DomainError::Interlock, "needs '" + l.required + "' away from its safe value first (requires)");
  }
  return {};
}

Result<WriteOutcome> OutputGuard::write(BoardPin& pin, const OutputWrite& w, const Caller& caller) {
  Output* found = find(pin);
  if (!found) return std::unexpected(Error::internal(pin.name() + ": not a guarded output"));
  Output& o = *found;
  if (auto checked = check(o, w); !checked) return std::unexpected(std::move(checked.error()));
  const auto now = clock_.now_ms();
  const bool to_safe = o.safe && w.value == *o.safe;
  const bool person = from_a_person(caller);
  WriteOutcome outcome;
  // What will end the value: the earliest of the pulse, the on time left and the lease.
  const auto consider = [&](std::optional<std::int64_t> at, const char* reason) {
    if (!at) return;
    const auto after = static_cast<std::uint32_t>(std::max<std::int64_t>(*at - now, 0));
    if (outcome.revert_reason.empty() || after < outcome.reverts_after_ms) {
      outcome.reverts_after_ms = after;
      outcome.revert_reason = reason;
    }
  };
  if (!to_safe && o.safe) {
    if (w.hold_ms) consider(now + w.hold_ms, "hold");
    if (o.limits.max_on_ms) consider((away(o) ? o.on_since : now) + o.limits.max_on_ms, "max_on");
    if (o.limits.lease_ms && !person) consider(now + o.limits.lease_ms, "lease");
  }
  if (w.dry_run) return outcome;

  const bool was_away = away(o);
  if (o.pwm) {
    hal::PwmState state = pin.pwm->state();
    state.duty = w.value / 255.0;
    if (w.frequency_hz) state.frequency_hz = *w.frequency_hz;
    if (auto set = pin.pwm->set(state); !set)
      return std::unexpected(Error::domain(DomainError::WriteError, o.name + ": " + set.error().message));
  } else if (auto written = pin.output->write(w.value != 0); !written) {
    return std::unexpected(Error::domain(DomainError::WriteError, o.name + ": " + written.error().message));
  }
  o.value = w.value;
  if (o.limits.max_writes_per_s) {
    while (!o.writes.empty() && o.writes.front() <= now - kRateWindowMs) o.writes.pop_front();
    o.writes.push_back(now);
  }
  if (to_safe || !o.safe) {
    if (was_away) {
      o.off_since = now;
      o.lease_until.reset();
      o.hold_until.reset();
      o.holder.reset();
      o.agent = false;
      revert_dependents(o, "'" + o.name + "' was set to its safe value");
    }
    reschedule();
    return outcome;
  }
  if (!was_away) o.on_since = now;
  o.holder = caller.identity;
  o.agent = !person;
  o.holder_label = caller.label().empty() ? caller.door : caller.door + " " + caller.label();
  o.hold_until = w.hold_ms ? std::optional<std::int64_t>(now + w.hold_ms) : std::nullopt;
  o.lease_until = o.limits.lease_ms && !person ? std::optional<std::int64_t>(now + o.limits.lease_ms) : std::nullopt;
  if (o.agent && o.limits.on_release == OnRelease::Safe && o.hooked.lock() != caller.identity) {
    o.hooked = caller.identity;
    std::weak_ptr<OutputGuard*> self = self_;
    caller.identity->when_gone(self_.get(), [self] {
      auto guard = self.lock();
      if (!guard || !*guard) return;
      (*guard)->clock_.defer([self] {
        if (auto g = self.lock(); g && *g) (*g)->clients_gone();
      });
    });
  }
  reschedule();
  return outcome;
}

void OutputGuard::clients_gone() {
  for (auto& [name, o] : outputs_) {
    if (!o->pin || !away(*o) || !o->agent || o->limits.on_release != OnRelease::Safe || !o->holder.expired()) continue;
    revert(*o, "release", "its client went away: " + o->holder_label);
  }
  reschedule();
}

void OutputGuard::drive(Output& o, int value) {
  hal::HalResult<void> done;
  if (o.pwm) {
    hal::PwmState state = o.pin->pwm->state();
    state.duty = value / 255.0;
    done = o.pin->pwm->set(state);
  } else {
    done = o.pin->output->write(value != 0);
  }
  if (!done) log::error("pins", o.name, ": could not return to its safe value: ", done.error().message);
  o.value = value;  // what was asked: a failed drive is logged, and the next write tries again
}

void OutputGuard::revert(Output& o, const std::string& action, const std::string& reason) {
  if (!o.pin || !o.safe) return;
  const std::string client = o.holder_label;
  const bool was_away = away(o);
  drive(o, *o.safe);
  o.lease_until.reset();
  o.hold_until.reset();
  o.holder.reset();
  o.agent = false;
  if (was_away) o.off_since = clock_.now_ms();
  log::info("pins", o.name, " back to ", value_text(o.pwm, *o.safe), " (", action, "): ", reason);
  publish(o, action, reason, client);
  revert_dependents(o, "'" + o.name + "' returned to its safe value (" + action + ")");
}

void OutputGuard::revert_dependents(const Output& o, const std::string& why) {
  for (auto& [name, other] : outputs_) {
    if (other->limits.required == o.name && away(*other)) revert(*other, "interlock", why + "; it requires it");
  }
}

void OutputGuard::publish(const Output& o, const std::string& action, const std::string& reason,
                          const std::string& client) const {
  if (!events_) return;
  events_->publish({EventKind::SafetyAction,
                    o.name,
                    {{"output", o.name},
                     {"action", action},
                     {"value", value_json(o.pwm, o.value)},
                     {"reason", reason},
                     {"client", client}}});
  if (!events_->wanted(EventKind::PinChanged)) return;
  json changed = {{"pin", o.pin->number()}, {"name", o.name}};
  if (o.pwm) {
    changed["duty"] = o.value;
    changed["frequency_hz"] = o.pin->pwm->state().frequency_hz;
  } else {
    changed["value"] = o.value != 0;
  }
  events_->publish({EventKind::PinChanged, o.name, std::move(changed)});
}

std::optional<std::pair<std::int64_t, const char*>> OutputGuard::next_deadline(const Output& o) const {
  if (!o.pin || !away(o)) return std::nullopt;
  std::optional<std::pair<std::int64_t, const char*>> next;
  const auto consider = [&](std::optional<std::int64_t> at, const char* action) {
    if (at && (!next || *at < next->first)) next = std::pair{*at, action};
  };
  consider(o.hold_until, "hold");
  if (o.limits.max_on_ms) consider(o.on_since + o.limits.max_on_ms, "max_on");
  consider(o.lease_until, "lease");
  return next;
}

void OutputGuard::expire() {
  const auto now = clock_.now_ms();
  for (auto& [name, o] : outputs_) {
    const auto due = next_deadline(*o);
    if (!due || due->first > now) continue;
    const std::string action = due->second;
    const std::string reason = action == "hold"     ? "the pulse (hold_ms) ended"
                               : action == "max_on" ? "on for max_on_ms " + std::to_string(o->limits.max_on_ms) + " ms"
                                                    : "lease_ms " + std::to_string(o->limits.lease_ms) +
                                                          " ms passed without a write from " + o->holder_label;
    revert(*o, action, reason);
  }
  reschedule();
}

void OutputGuard::reschedule() {
  std::optional<std::int64_t> earliest;
  for (const auto& [name, o] : outputs_) {
    if (const auto due = next_deadline(*o); due && (!earliest || due->first < *earliest)) earliest = due->first;
  }
  if (earliest == armed_) return;
  armed_ = earliest;
  clock_.wake_at(earliest);
}

void OutputGuard::release_all(std::string reason) {
  for (auto& [name, o] : outputs_) {
    if (!o->pin || !o->safe) continue;
    if (away(*o)) {
      revert(*o, "release_all", reason);
    } else {
      o->lease_until.reset();
      o->hold_until.reset();
      o->holder.reset();
    }
  }
  reschedule();
}

json OutputGuard::describe(const BoardPin& pin) const {
  const Output* o = find(pin);
  if (!o) return json::object();
  const auto& l = o->limits;
  json out = {{"on_release", l.on_release == OnRelease::Safe ? "safe" : "hold"}};
  if (o->safe) out["safe"] = value_json(o->pwm, *o->safe);
  if (l.lease_ms) out["lease_ms"] = l.lease_ms;
  if (l.max_on_ms) out["max_on_ms"] = l.max_on_ms;
  if (l.min_off_ms) out["min_off_ms"] = l.min_off_ms;
  if (l.max_writes_per_s) out["max_writes_per_s"] = l.max_writes_per_s;
  if (l.min_duty) out["min_duty"] = *l.min_duty;
  if (l.max_duty) out["max_duty"] = *l.max_duty;
  if (!o->exclusive.empty()) out["exclusive_with"] = o->exclusive;
  if (!l.required.empty()) out["requires"] = l.required;
  if (!away(*o)) return out;
  out["on_since_ms"] = o->on_since + unix_offset_ms_;
  if (o->lease_until) out["lease_expires_ms"] = *o->lease_until + unix_offset_ms_;
  if (const auto due = next_deadline(*o)) {
    out["reverts_at_ms"] = due->first + unix_offset_ms_;
    out["revert_reason"] = due->second;
  }
  if (!o->holder_label.empty()) out["holder"] = o->holder_label;
  return out;
}

std::string OutputGuard::summary(const PinTable& table, bool pwm) const {
  std::string text;
  for (const auto& pin : table.pins()) {
    const Output* o = find(*pin);
    if (!o || o->pwm != pwm) continue;
    const auto& l = o->limits;
    std::vector<std::string> parts;
    if (l.on_release == OnRelease::Safe && o->safe)
      parts.push_back("back to " + value_text(o->pwm, *o->safe) + " when its client goes");
    if (l.lease_ms) parts.push_back("lease " + duration_text(l.lease_ms) + " (write again to keep it)");
    if (l.max_on_ms) parts.push_back("max " + duration_text(l.max_on_ms) + " on");
    if (l.min_off_ms) parts.push_back(duration_text(l.min_off_ms) + " off between");
    if (l.max_writes_per_s) parts.push_back("at most " + std::to_string(l.max_writes_per_s) + " writes/s");
    if (l.min_duty || l.max_duty)
      parts.push_back("duty " + std::to_string(l.min_duty.value_or(0)) + "-" +
                      std::to_string(l.max_duty.value_or(255)));
    if (!o->exclusive.empty()) {
      std::string others;
      for (const auto& other : o->exclusive) others += (others.empty() ? "" : ", ") + other;
      parts.push_back("never on with " + others);
    }
    if (!l.required.empty()) parts.push_back("only while " + l.required + " is on");
    if (parts.empty()) continue;
    text += (text.empty() ? "" : "; ") + o->name + ":";
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : " ") + parts[i];
  }
  return text;
}

}  // namespace mcpud::pins
