// SPDX-License-Identifier: MIT
// Summary, buffer and event bookkeeping for one sampled pin.
#include "mcpud/core/sampler.hpp"

#include <algorithm>

namespace mcpud {

std::string_view event_type_name(EventType type) {
  switch (type) {
    case EventType::ThresholdHigh:
      return "threshold_high";
    case EventType::ThresholdLow:
      return "threshold_low";
    case EventType::BackInRange:
      return "in_range";
    case EventType::Rising:
      return "rising";
    case EventType::Falling:
      return "falling";
  }
  return "unknown";
}

PinSampler::PinSampler(SamplingOptions options)
    : options_(options), buffer_(options.buffer_size), events_(options.events_enabled() ? options.event_capacity : 0) {}

void PinSampler::add(double value, std::int64_t timestamp_ms) {
  const bool first = summary_.count == 0;
  const double previous = summary_.latest;
  ++summary_.count;
  summary_.latest = value;
  summary_.latest_timestamp_ms = timestamp_ms;
  summary_.min = first ? value : std::min(summary_.min, value);
  summary_.max = first ? value : std::max(summary_.max, value);
  summary_.mean += (value - summary_.mean) / static_cast<double>(summary_.count);
  buffer_.push({value, timestamp_ms});
  if (options_.thresholds) check_thresholds(*options_.thresholds, value, timestamp_ms);
  if (options_.edges != EdgeMode::None && !options_.hardware_edges && !first && (previous != 0) != (value != 0)) {
    add_edge(value != 0, timestamp_ms);
  }
}

void PinSampler::add_edge(bool rising, std::int64_t timestamp_ms) {
  const bool wanted = options_.edges == EdgeMode::Both || (rising && options_.edges == EdgeMode::Rising) ||
                      (!rising && options_.edges == EdgeMode::Falling);
  if (!wanted) return;
  events_.push({rising ? EventType::Rising : EventType::Falling, rising ? 1.0 : 0.0, std::nullopt, timestamp_ms});
}

void PinSampler::check_thresholds(const Thresholds& t, double value, std::int64_t timestamp_ms) {
  Band next = band_;
  if (value > t.high) {
    next = Band::High;
  } else if (value < t.low) {
    next = Band::Low;
  } else if (band_ == Band::Unknown || (band_ == Band::High && value <= t.high - t.hysteresis) ||
             (band_ == Band::Low && value >= t.low + t.hysteresis)) {
    next = Band::InRange;
  }
  if (next == band_) return;
  const Band before = band_;
  band_ = next;
  switch (next) {
    case Band::High:
      events_.push({EventType::ThresholdHigh, value, t.high, timestamp_ms});
      break;
    case Band::Low:
      events_.push({EventType::ThresholdLow, value, t.low, timestamp_ms});
      break;
    case Band::InRange:
      // Starting in range is the normal state, not an event.
      if (before != Band::Unknown) {
        events_.push({EventType::BackInRange, value, before == Band::High ? t.high : t.low, timestamp_ms});
      }
      break;
    case Band::Unknown:
      break;
  }
}

}  // namespace mcpud
