// SPDX-License-Identifier: MIT
// Turns successive get_pin_buffer replies of one device pin into the samples
// that are new since the last reply, with inferred timestamps, so each sample
// reaches mcpud's history exactly once. Pure logic; single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/sampler.hpp"

namespace mcpud::bridge {

// Two ways to tell what is new:
// - cursor: the device reports first_seq/next_since/last_seq (mcpud's own
//   firmware does); we pass next_since back as `since` and take what comes;
// - overlap: the reference firmware returns its whole ring each time; the new
//   samples are what follows the longest-matching overlap with the previous
//   window, choosing among equally valid overlaps the one whose count of new
//   samples best fits the time elapsed (so a constant signal is not lost).
class BufferDrain {
 public:
  BufferDrain(int pin, std::uint32_t interval_ms, std::size_t buffer_size)
      : pin_(pin), interval_ms_(interval_ms == 0 ? 1 : interval_ms), buffer_size_(buffer_size) {}

  // The params of the next get_pin_buffer call.
  nlohmann::json request() const;
  // New samples in `reply`, oldest first, timestamped relative to `now_ms` (the
  // newest sample at now_ms, each older one interval_ms earlier, never before
  // the last sample already returned). An unusable reply is an error.
  Result<std::vector<Sample>> accept(const nlohmann::json& reply, std::int64_t now_ms);
  // The device restarted or reconnected: its buffer starts over.
  void restart();

  bool cursor_mode() const { return cursor_mode_; }
  // Whether the device answered that this pin has no buffer.
  bool unavailable() const { return unavailable_; }

 private:
  std::vector<double> new_by_cursor(const nlohmann::json& reply, const std::vector<double>& values,
                                    std::uint64_t& newest_age);
  std::vector<double> new_by_overlap(const std::vector<double>& values, std::int64_t now_ms);
  std::vector<Sample> stamp(const std::vector<double>& fresh, std::uint64_t newest_age, std::int64_t now_ms);

  int pin_;
  std::uint32_t interval_ms_;
  std::size_t buffer_size_;
  bool cursor_mode_ = false;
  bool unavailable_ = false;
  std::uint64_t since_ = 0;
  std::vector<double> window_;  // overlap mode: the previous reply's values
  std::int64_t window_ms_ = 0;  // when window_ was read (0: never)
  std::int64_t last_timestamp_ms_ = 0;
};

// The period at which to drain a pin whose device buffers `buffer_size` samples
// every `interval_ms`: often enough that the ring never wraps past what was read.
std::uint32_t drain_period_ms(std::uint32_t interval_ms, std::size_t buffer_size);

}  // namespace mcpud::bridge
