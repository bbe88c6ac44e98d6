// SPDX-License-Identifier: MIT
// Per-pin sample history: a cumulative summary, a ring buffer whose entries carry
// a sequence number (so a poller can drain without gaps or duplicates), and an
// event queue (threshold crossings with hysteresis, digital edges).
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mcpud {

enum class EdgeMode { None, Rising, Falling, Both };
enum class EventType { ThresholdHigh, ThresholdLow, BackInRange, Rising, Falling };
std::string_view event_type_name(EventType type);

struct Thresholds {
  double low = 0;
  double high = 0;
  // A value must come back past a threshold by this much before the pin counts
  // as back in range; stops a noisy signal near a threshold from flooding events.
  double hysteresis = 0;
};

struct SamplingOptions {
  std::uint32_t interval_ms = 1000;  // 0: never sampled on a timer (edges only)
  std::size_t buffer_size = 0;       // 0: no ring buffer
  bool summary = true;
  std::optional<Thresholds> thresholds;
  EdgeMode edges = EdgeMode::None;
  std::size_t event_capacity = 64;
  // Edges come from the hardware (add_edge, e.g. a GPIO line's events), not from
  // comparing samples, so one edge is never queued twice.
  bool hardware_edges = false;

  bool events_enabled() const { return thresholds.has_value() || edges != EdgeMode::None; }
};

// A ring of the newest `capacity` items, each with a sequence number starting at 1.
template <class T>
class SequencedRing {
 public:
  struct Entry {
    std::uint64_t seq;
    T item;
  };
  struct Slice {
    std::vector<const Entry*> entries;  // oldest first
    std::uint64_t lost = 0;             // entries after `since` that were overwritten
  };

  explicit SequencedRing(std::size_t capacity) : capacity_(capacity) {}

  // Once full, overwrites the oldest entry in place: no allocation per item
  // (a pin sampled at 1 kHz pushes a thousand a second).
  void push(T item) {
    if (capacity_ == 0) return;
    if (entries_.size() < capacity_) {
      if (entries_.empty()) entries_.reserve(capacity_);
      entries_.push_back({++last_seq_, std::move(item)});
      return;
    }
    entries_[oldest_] = {++last_seq_, std::move(item)};
    oldest_ = oldest_ + 1 == capacity_ ? 0 : oldest_ + 1;
  }

  // Entries with seq > since (all when since is 0), oldest first, at most `limit`.
  Slice read(std::uint64_t since, std::size_t limit) const {
    Slice slice;
    const std::uint64_t first = entries_.empty() ? last_seq_ + 1 : at(0).seq;
    if (since < first - 1) slice.lost = first - 1 - since;  // first >= 1: no overflow
    const std::size_t skip = since >= first ? static_cast<std::size_t>(since - first + 1) : 0;
    for (std::size_t i = skip; i < entries_.size() && slice.entries.size() < limit; ++i) {
      slice.entries.push_back(&at(i));
    }
    return slice;
  }

  std::uint64_t last_seq() const { return last_seq_; }
  std::size_t size() const { return entries_.size(); }
  std::size_t capacity() const { return capacity_; }

 private:
  // The i-th oldest entry.
  const Entry& at(std::size_t i) const {
    const std::size_t slot = oldest_ + i;
    return entries_[slot < entries_.size() ? slot : slot - entries_.size()];
  }

  std::size_t capacity_;
  std::vector<Entry> entries_;  // a ring once full; oldest_ is where it starts
  std::size_t oldest_ = 0;
  std::uint64_t last_seq_ = 0;
};

struct Sample {
  double value = 0;
  std::int64_t timestamp_ms = 0;  // wall clock, milliseconds since the Unix epoch
};

struct PinEvent {
  EventType type = EventType::ThresholdHigh;
  double value = 0;
  std::optional<double> threshold;
  std::int64_t timestamp_ms = 0;
};

// Cumulative since sampling started. The mean is kept incrementally, so it stays
// exact however many samples arrive (no saturating counter).
struct Summary {
  double latest = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  std::uint64_t count = 0;
  std::int64_t latest_timestamp_ms = 0;
  // Ticks of the sampling interval that gave no sample: the event loop woke
  // more than an interval late (a busy or suspended machine), a slow sensor's
  // read was still running, or the read failed. count + missed is every tick.
  std::uint64_t missed = 0;
};

// Not thread-safe; owned by the event loop.
class PinSampler {
 public:
  explicit PinSampler(SamplingOptions options);

  // Records one sample: updates the summary and buffer, and queues threshold and
  // edge events it causes.
  void add(double value, std::int64_t timestamp_ms);
  // Queues an edge reported by hardware (e.g. a GPIO line event), which may be
  // faster than the sampling interval.
  void add_edge(bool rising, std::int64_t timestamp_ms);
  // Counts ticks that gave no sample (Summary::missed).
  void add_missed(std::uint64_t ticks) { summary_.missed += ticks; }

  const SamplingOptions& options() const { return options_; }
  const Summary& summary() const { return summary_; }
  const SequencedRing<Sample>& buffer() const { return buffer_; }
  const SequencedRing<PinEvent>& events() const { return events_; }

 private:
  enum class Band { Unknown, Low, InRange, High };
  void check_thresholds(const Thresholds& t, double value, std::int64_t timestamp_ms);

  SamplingOptions options_;
  Summary summary_;
  SequencedRing<Sample> buffer_;
  SequencedRing<PinEvent> events_;
  Band band_ = Band::Unknown;
};

}  // namespace mcpud
