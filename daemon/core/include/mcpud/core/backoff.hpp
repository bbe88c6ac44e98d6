// SPDX-License-Identifier: MIT
// The wait before the next reconnect attempt of anything that dials out (bridged
// MCUs, uplinks, brokers): doubling from a first delay up to a ceiling, with
// jitter so a fleet that lost the same server does not come back in lockstep.
// Single-threaded.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>

namespace mcpud {

class Backoff {
 public:
  using Duration = std::chrono::milliseconds;

  // `jitter` is the fraction of each delay that is randomised (0 = none).
  Backoff(Duration first, Duration ceiling, double jitter = 0.2)
      : first_(first), ceiling_(std::max(first, ceiling)), jitter_(std::clamp(jitter, 0.0, 1.0)) {}

  // The delay before the next attempt; each call doubles the base up to the ceiling.
  Duration next() {
    base_ = base_.count() == 0 ? first_ : std::min(base_ * 2, ceiling_);
    if (jitter_ == 0.0) return base_;
    // Spread over [base * (1 - jitter), base]: never longer than the ceiling.
    std::uniform_real_distribution<double> spread(1.0 - jitter_, 1.0);
    return Duration(static_cast<std::int64_t>(static_cast<double>(base_.count()) * spread(random_)));
  }

  // After a successful connection: the next failure starts from `first` again.
  void reset() { base_ = Duration(0); }

  void set_ceiling(Duration ceiling) { ceiling_ = std::max(first_, ceiling); }

 private:
  Duration first_;
  Duration ceiling_;
  double jitter_;
  Duration base_{0};
  std::minstd_rand random_{std::random_device{}()};
};

}  // namespace mcpud
