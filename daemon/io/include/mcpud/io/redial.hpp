// SPDX-License-Identifier: MIT
// The reconnect loop of everything that dials out (bridged MCUs, the uplinks,
// the MQTT client): after a failure, wait the backoff's next delay, then dial
// again; a good connection starts the backoff over. Event loop only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/backoff.hpp"

namespace mcpud::io {

class Redial {
 public:
  Redial(boost::asio::io_context& io, Backoff::Duration first, Backoff::Duration ceiling)
      : timer_(io), backoff_(first, ceiling) {}

  // Runs `dial` once the next delay has passed (replacing an attempt already
  // waiting) and returns that delay. `dial` is not run when cancel() comes first
  // or this object is destroyed.
  Backoff::Duration later(std::function<void()> dial) {
    const auto delay = backoff_.next();
    due_ = std::chrono::steady_clock::now() + delay;
    timer_.expires_after(delay);
    // Captures nothing of this object: the handler may run after it is gone.
    timer_.async_wait([dial = std::move(dial)](boost::system::error_code ec) {
      if (!ec) dial();
    });
    return delay;
  }

  // A connection worked: the next failure waits the first delay again.
  void connected() {
    backoff_.reset();
    due_.reset();
  }
  void cancel() {
    timer_.cancel();
    due_.reset();
  }
  void set_ceiling(Backoff::Duration ceiling) { backoff_.set_ceiling(ceiling); }

  // When the waiting attempt is due; nothing when none waits.
  std::optional<std::chrono::steady_clock::time_point> next_attempt() const { return due_; }
  // The same as Unix time in milliseconds, for people and pages; nothing when
  // none waits or the attempt is already under way.
  std::optional<std::int64_t> next_attempt_unix_ms() const {
    const auto now = std::chrono::steady_clock::now();
    if (!due_ || *due_ <= now) return std::nullopt;
    const auto wall = std::chrono::system_clock::now() + (*due_ - now);
    return std::chrono::duration_cast<std::chrono::milliseconds>(wall.time_since_epoch()).count();
  }

 private:
  boost::asio::steady_timer timer_;
  Backoff backoff_;
  std::optional<std::chrono::steady_clock::time_point> due_;
};

}  // namespace mcpud::io
