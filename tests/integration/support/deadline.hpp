// SPDX-License-Identifier: MIT
// A point in time every blocking helper of the integration tests gives up at.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace mcpud::it {

using namespace std::chrono_literals;

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  // Implicit on purpose: helpers take a Deadline, callers write `5s`.
  template <class Rep, class Period>
  Deadline(std::chrono::duration<Rep, Period> timeout)  // NOLINT(google-explicit-constructor)
      : at_(Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout)) {}

  bool expired() const { return Clock::now() >= at_; }
  Clock::time_point at() const { return at_; }

  // Milliseconds left, rounded up and clamped to [0, max], for poll().
  int poll_ms(int max = 1000 * 60) const {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(at_ - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, max));
  }

 private:
  Clock::time_point at_;
};

// Polls `condition` every `step` until it holds or the deadline passes.
template <class Condition>
bool eventually(Condition&& condition, Deadline deadline, std::chrono::milliseconds step = 50ms) {
  for (;;) {
    if (condition()) return true;
    if (deadline.expired()) return false;
    std::this_thread::sleep_for(step);
  }
}

}  // namespace mcpud::it
