// SPDX-License-Identifier: MIT
// Cursor and overlap de-duplication of drained device buffers.
#include "buffer_drain.hpp"

#include <algorithm>
#include <cmath>

namespace mcpud::bridge {
namespace {

using nlohmann::json;

bool is_count(const json& reply, const char* key) {
  return reply.contains(key) && reply[key].is_number_integer() && reply[key].get<std::int64_t>() >= 0;
}

}  // namespace

json BufferDrain::request() const {
  return {{"pin", pin_}, {"limit", std::max<std::size_t>(buffer_size_, 1)}, {"since", since_}};
}

void BufferDrain::restart() {
  since_ = 0;
  window_.clear();
  window_ms_ = 0;
}

Result<std::vector<Sample>> BufferDrain::accept(const json& reply, std::int64_t now_ms) {
  if (reply.is_object() && reply.contains("buffer_available") && reply["buffer_available"] == false) {
    unavailable_ = true;
    return std::vector<Sample>{};
  }
  if (!reply.is_object() || !reply.contains("values") || !reply["values"].is_array()) {
    return std::unexpected(Error::domain(DomainError::DeviceError, "get_pin_buffer reply has no values array"));
  }
  std::vector<double> values;
  for (const auto& v : reply["values"]) {
    if (!v.is_number())
      return std::unexpected(Error::domain(DomainError::DeviceError, "get_pin_buffer: a value is not a number"));
    values.push_back(v.get<double>());
  }
  cursor_mode_ = is_count(reply, "next_since") && is_count(reply, "last_seq");
  std::uint64_t newest_age = 0;  // in intervals: how old the newest fresh sample is
  const auto fresh = cursor_mode_ ? new_by_cursor(reply, values, newest_age) : new_by_overlap(values, now_ms);
  return stamp(fresh, newest_age, now_ms);
}

std::vector<double> BufferDrain::new_by_cursor(const json& reply, const std::vector<double>& values,
                                               std::uint64_t& newest_age) {
  const auto last_seq = reply["last_seq"].get<std::uint64_t>();
  if (last_seq < since_) {
    // The device restarted: its sequence starts over; read from its beginning next time.
    since_ = 0;
    return {};
  }
  const auto next = reply["next_since"].get<std::uint64_t>();
  newest_age = last_seq - next;
  since_ = next;
  return values;
}

std::vector<double> BufferDrain::new_by_overlap(const std::vector<double>& values, std::int64_t now_ms) {
  const double expected =
      window_ms_ == 0 ? static_cast<double>(values.size()) : static_cast<double>(now_ms - window_ms_) / interval_ms_;
  std::size_t best_overlap = 0;
  double best_miss = std::abs(static_cast<double>(values.size()) - expected);
  const std::size_t longest = std::min(window_.size(), values.size());
  for (std::size_t k = 1; k <= longest; ++k) {
    if (!std::equal(window_.end() - static_cast<std::ptrdiff_t>(k), window_.end(), values.begin())) continue;
    const double miss = std::abs(static_cast<double>(values.size() - k) - expected);
    if (miss <= best_miss) {  // ties go to the longer overlap: fewer duplicates
      best_overlap = k;
      best_miss = miss;
    }
  }
  window_ = values;
  window_ms_ = now_ms;
  return {values.begin() + static_cast<std::ptrdiff_t>(best_overlap), values.end()};
}

std::vector<Sample> BufferDrain::stamp(const std::vector<double>& fresh, std::uint64_t newest_age,
                                       std::int64_t now_ms) {
  std::vector<Sample> samples;
  samples.reserve(fresh.size());
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    const auto age = newest_age + (fresh.size() - 1 - i);
    auto timestamp = now_ms - static_cast<std::int64_t>(age * interval_ms_);
    timestamp = std::max(timestamp, last_timestamp_ms_ + 1);  // history never runs backwards
    last_timestamp_ms_ = timestamp;
    samples.push_back({fresh[i], timestamp});
  }
  return samples;
}

std::uint32_t drain_period_ms(std::uint32_t interval_ms, std::size_t buffer_size) {
  const double ring_ms = static_cast<double>(interval_ms) * static_cast<double>(std::max<std::size_t>(buffer_size, 1));
  return static_cast<std::uint32_t>(std::clamp(ring_ms * 0.5, 200.0, 60'000.0));
}

}  // namespace mcpud::bridge
