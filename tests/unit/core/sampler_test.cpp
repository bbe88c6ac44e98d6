// SPDX-License-Identifier: MIT
// Unit tests of SequencedRing and PinSampler: cursors, summary, thresholds with hysteresis, edges.
#include "mcpud/core/sampler.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mcpud {
namespace {

constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();

std::vector<std::uint64_t> seqs(const SequencedRing<int>::Slice& slice) {
  std::vector<std::uint64_t> out;
  for (const auto* entry : slice.entries) out.push_back(entry->seq);
  return out;
}

std::vector<int> items(const SequencedRing<int>::Slice& slice) {
  std::vector<int> out;
  for (const auto* entry : slice.entries) out.push_back(entry->item);
  return out;
}

SequencedRing<int> ring_with(std::size_t capacity, int pushes) {
  SequencedRing<int> ring(capacity);
  for (int i = 1; i <= pushes; ++i) ring.push(i * 10);
  return ring;
}

// --- SequencedRing ---------------------------------------------------------------

TEST(SequencedRing, NumbersEntriesFromOne) {
  const auto ring = ring_with(5, 3);
  const auto slice = ring.read(0, kAll);
  EXPECT_EQ(seqs(slice), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(items(slice), (std::vector<int>{10, 20, 30}));
  EXPECT_EQ(slice.lost, 0u);
  EXPECT_EQ(ring.last_seq(), 3u);
  EXPECT_EQ(ring.size(), 3u);
  EXPECT_EQ(ring.capacity(), 5u);
}

TEST(SequencedRing, EmptyRingReadsNothingAndLosesNothing) {
  const SequencedRing<int> ring(4);
  const auto slice = ring.read(0, kAll);
  EXPECT_TRUE(slice.entries.empty());
  EXPECT_EQ(slice.lost, 0u);
  EXPECT_EQ(ring.last_seq(), 0u);
}

TEST(SequencedRing, KeepsOnlyTheNewestCapacityEntries) {
  const auto ring = ring_with(3, 7);
  EXPECT_EQ(ring.size(), 3u);
  EXPECT_EQ(ring.last_seq(), 7u);
  EXPECT_EQ(items(ring.read(0, kAll)), (std::vector<int>{50, 60, 70}));
}

struct ReadCase {
  const char* name;
  std::uint64_t since;
  std::size_t limit;
  std::vector<std::uint64_t> seqs;
  std::uint64_t lost;
};

TEST(SequencedRing, ReadHonoursSinceLimitAndLostAsTable) {
  // Capacity 4, 10 pushes: seqs 7..10 are held, 1..6 were overwritten.
  const auto ring = ring_with(4, 10);
  const std::vector<ReadCase> cases = {
      {"all", 0, kAll, {7, 8, 9, 10}, 6},
      {"all, limited", 0, 2, {7, 8}, 6},
      {"since inside the lost part", 3, kAll, {7, 8, 9, 10}, 3},
      {"since just before the oldest", 6, kAll, {7, 8, 9, 10}, 0},
      {"since the oldest", 7, kAll, {8, 9, 10}, 0},
      {"since in the middle, limited", 8, 1, {9}, 0},
      {"since the newest", 10, kAll, {}, 0},
      {"since beyond the newest", 99, kAll, {}, 0},
      {"limit larger than the ring", 0, 100, {7, 8, 9, 10}, 6},
  };
  for (const auto& c : cases) {
    const auto slice = ring.read(c.since, c.limit);
    EXPECT_EQ(seqs(slice), c.seqs) << c.name;
    EXPECT_EQ(slice.lost, c.lost) << c.name;
  }
}

TEST(SequencedRing, LargestSinceLosesNothing) {
  // since + 1 must not wrap around to 0 and count the whole ring as lost.
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  const auto full = ring_with(4, 10);
  EXPECT_TRUE(full.read(kMax, kAll).entries.empty());
  EXPECT_EQ(full.read(kMax, kAll).lost, 0u);
  const SequencedRing<int> empty(4);
  EXPECT_EQ(empty.read(kMax, kAll).lost, 0u);
}

TEST(SequencedRing, DrainingWithTheLastSeqSeesEveryEntryOnce) {
  SequencedRing<int> ring(8);
  std::vector<int> drained;
  std::uint64_t since = 0;
  int next = 0;
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < round % 7; ++i) ring.push(next++);
    const auto slice = ring.read(since, 3);
    EXPECT_EQ(slice.lost, 0u) << round;
    for (const auto* entry : slice.entries) {
      drained.push_back(entry->item);
      since = entry->seq;
    }
    // Keep up: drain the rest of what is there before more arrives.
    for (auto rest = ring.read(since, kAll); !rest.entries.empty(); rest = ring.read(since, kAll)) {
      for (const auto* entry : rest.entries) {
        drained.push_back(entry->item);
        since = entry->seq;
      }
    }
  }
  ASSERT_EQ(drained.size(), static_cast<std::size_t>(next));
  for (int i = 0; i < next; ++i) EXPECT_EQ(drained[i], i);
}

TEST(SequencedRing, ZeroCapacityHoldsNothing) {
  SequencedRing<int> ring(0);
  ring.push(1);
  ring.push(2);
  EXPECT_EQ(ring.size(), 0u);
  EXPECT_TRUE(ring.read(0, kAll).entries.empty());
}

// --- Summary ------------------------------------------------------------------

SamplingOptions plain() {
  SamplingOptions o;
  o.interval_ms = 10;
  return o;
}

TEST(PinSamplerSummary, TracksLatestMinMaxMeanAndCount) {
  PinSampler sampler(plain());
  sampler.add(5, 100);
  sampler.add(-3, 110);
  sampler.add(10, 120);
  sampler.add(4, 130);
  const auto& s = sampler.summary();
  EXPECT_EQ(s.latest, 4);
  EXPECT_EQ(s.min, -3);
  EXPECT_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.mean, 4);
  EXPECT_EQ(s.count, 4u);
  EXPECT_EQ(s.latest_timestamp_ms, 130);
}

TEST(PinSamplerSummary, FirstSampleSetsMinAndMax) {
  // A first sample above zero must not leave min at the initial 0.
  PinSampler sampler(plain());
  sampler.add(700, 1);
  EXPECT_EQ(sampler.summary().min, 700);
  EXPECT_EQ(sampler.summary().max, 700);
  PinSampler negative(plain());
  negative.add(-700, 1);
  EXPECT_EQ(negative.summary().max, -700);
}

TEST(PinSamplerSummary, StaysExactOverManySamples) {
  // Far beyond the 65535 where a 16-bit counter would saturate.
  PinSampler sampler(plain());
  constexpr int kSamples = 100000;
  for (int i = 0; i < kSamples; ++i) sampler.add(i % 1000, i);
  const auto& s = sampler.summary();
  EXPECT_EQ(s.count, static_cast<std::uint64_t>(kSamples));
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, 999);
  EXPECT_NEAR(s.mean, 499.5, 1e-6);
  EXPECT_EQ(s.latest, (kSamples - 1) % 1000);
}

TEST(PinSamplerSummary, MeanFollowsAStepAfterManySamples) {
  // A saturated counter would make the mean jump to the new value; an exact one moves slowly.
  PinSampler sampler(plain());
  for (int i = 0; i < 100000; ++i) sampler.add(100, i);
  for (int i = 0; i < 100000; ++i) sampler.add(300, 100000 + i);
  EXPECT_NEAR(sampler.summary().mean, 200, 1e-6);
  EXPECT_EQ(sampler.summary().count, 200000u);
}

TEST(PinSamplerSummary, WorksWithoutBufferOrEvents) {
  PinSampler sampler(plain());
  sampler.add(1, 1);
  EXPECT_EQ(sampler.buffer().size(), 0u);
  EXPECT_EQ(sampler.events().size(), 0u);
  EXPECT_FALSE(sampler.options().events_enabled());
}

// --- Buffer -------------------------------------------------------------------

TEST(PinSamplerBuffer, HoldsTheNewestSamplesWithSequenceNumbers) {
  auto options = plain();
  options.buffer_size = 3;
  PinSampler sampler(options);
  for (int i = 1; i <= 5; ++i) sampler.add(i * 1.5, 1000 + i);
  const auto slice = sampler.buffer().read(0, kAll);
  ASSERT_EQ(slice.entries.size(), 3u);
  EXPECT_EQ(slice.lost, 2u);
  EXPECT_EQ(slice.entries[0]->seq, 3u);
  EXPECT_EQ(slice.entries[0]->item.value, 4.5);
  EXPECT_EQ(slice.entries[0]->item.timestamp_ms, 1003);
  EXPECT_EQ(slice.entries[2]->seq, 5u);
  EXPECT_EQ(slice.entries[2]->item.value, 7.5);
  EXPECT_EQ(sampler.buffer().last_seq(), 5u);
}

// --- Thresholds ---------------------------------------------------------------

SamplingOptions with_thresholds(double low, double high, double hysteresis) {
  auto o = plain();
  o.thresholds = Thresholds{low, high, hysteresis};
  return o;
}

struct Seen {
  EventType type;
  double value;
  std::optional<double> threshold;
  bool operator==(const Seen&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Seen& e) {
  os << event_type_name(e.type) << "(" << e.value;
  if (e.threshold) os << " @" << *e.threshold;
  return os << ")";
}

std::vector<Seen> events_of(const PinSampler& sampler) {
  std::vector<Seen> out;
  for (const auto* entry : sampler.events().read(0, kAll).entries) {
    out.push_back({entry->item.type, entry->item.value, entry->item.threshold});
  }
  return out;
}

std::vector<Seen> feed(SamplingOptions options, const std::vector<double>& values) {
  PinSampler sampler(options);
  std::int64_t t = 0;
  for (const double v : values) sampler.add(v, t += 10);
  return events_of(sampler);
}

using ET = EventType;

struct ThresholdCase {
  const char* name;
  std::vector<double> values;
  std::vector<Seen> events;
};

TEST(PinSamplerThresholds, QueueCrossingsWithHysteresisAsTable) {
  // low 10, high 20, hysteresis 2: back in range at <= 18 from high, >= 12 from low.
  const auto options = with_thresholds(10, 20, 2);
  const std::vector<ThresholdCase> cases = {
      {"starting in range is no event", {15, 16, 14}, {}},
      {"starting high", {25}, {{ET::ThresholdHigh, 25, 20}}},
      {"starting low", {5}, {{ET::ThresholdLow, 5, 10}}},
      {"high once while it stays high", {15, 21, 25, 30}, {{ET::ThresholdHigh, 21, 20}}},
      {"back in range past the hysteresis", {15, 21, 17}, {{ET::ThresholdHigh, 21, 20}, {ET::BackInRange, 17, 20}}},
      {"not back in range inside the hysteresis", {15, 21, 19, 19.5, 18.5}, {{ET::ThresholdHigh, 21, 20}}},
      {"low, then back in range", {15, 9, 11, 13}, {{ET::ThresholdLow, 9, 10}, {ET::BackInRange, 13, 10}}},
      {"not back from low inside the hysteresis", {15, 9, 10, 11, 11.9}, {{ET::ThresholdLow, 9, 10}}},
      {"straight from high to low", {15, 25, 5}, {{ET::ThresholdHigh, 25, 20}, {ET::ThresholdLow, 5, 10}}},
      {"straight from low to high", {5, 25}, {{ET::ThresholdLow, 5, 10}, {ET::ThresholdHigh, 25, 20}}},
      {"exactly at a threshold is in range", {20, 10}, {}},
      {"a full round trip",
       {15, 22, 16, 8, 14, 15},
       {{ET::ThresholdHigh, 22, 20}, {ET::BackInRange, 16, 20}, {ET::ThresholdLow, 8, 10}, {ET::BackInRange, 14, 10}}},
  };
  for (const auto& c : cases) EXPECT_EQ(feed(options, c.values), c.events) << c.name;
}

TEST(PinSamplerThresholds, NoiseAroundAThresholdDoesNotFlap) {
  // A signal wobbling +-1.5 around the high threshold, hysteresis 2: one event, not hundreds.
  std::vector<double> values = {15};
  for (int i = 0; i < 500; ++i) values.push_back(i % 2 ? 21.5 : 18.5);
  EXPECT_EQ(feed(with_thresholds(10, 20, 2), values), (std::vector<Seen>{{ET::ThresholdHigh, 21.5, 20}}));
  // The same around the low threshold.
  std::vector<double> low_values = {15};
  for (int i = 0; i < 500; ++i) low_values.push_back(i % 2 ? 8.5 : 11.5);
  EXPECT_EQ(feed(with_thresholds(10, 20, 2), low_values), (std::vector<Seen>{{ET::ThresholdLow, 8.5, 10}}));
}

TEST(PinSamplerThresholds, WithoutHysteresisEveryCrossingCounts) {
  EXPECT_EQ(feed(with_thresholds(10, 20, 0), {15, 21, 19, 21}),
            (std::vector<Seen>{{ET::ThresholdHigh, 21, 20}, {ET::BackInRange, 19, 20}, {ET::ThresholdHigh, 21, 20}}));
}

TEST(PinSamplerThresholds, EventsCarryTheSampleTimestampAndSequence) {
  PinSampler sampler(with_thresholds(0, 1, 0));
  sampler.add(0.5, 1000);
  sampler.add(2, 2000);
  sampler.add(-1, 3000);
  const auto slice = sampler.events().read(0, kAll);
  ASSERT_EQ(slice.entries.size(), 2u);
  EXPECT_EQ(slice.entries[0]->seq, 1u);
  EXPECT_EQ(slice.entries[0]->item.timestamp_ms, 2000);
  EXPECT_EQ(slice.entries[1]->seq, 2u);
  EXPECT_EQ(slice.entries[1]->item.timestamp_ms, 3000);
}

TEST(PinSamplerThresholds, EventQueueKeepsTheNewestEventCapacityEvents) {
  auto options = with_thresholds(10, 20, 0);
  options.event_capacity = 4;
  PinSampler sampler(options);
  for (int i = 0; i < 10; ++i) sampler.add(i % 2 ? 25 : 5, i);  // 10 events
  const auto slice = sampler.events().read(0, kAll);
  EXPECT_EQ(slice.entries.size(), 4u);
  EXPECT_EQ(slice.lost, 6u);
  EXPECT_EQ(sampler.events().last_seq(), 10u);
}

// --- Edges --------------------------------------------------------------------

SamplingOptions with_edges(EdgeMode mode) {
  auto o = plain();
  o.edges = mode;
  return o;
}

struct EdgeCase {
  const char* name;
  EdgeMode mode;
  std::vector<Seen> events;
};

TEST(PinSamplerEdges, FollowTheEdgeModeAsTable) {
  const std::vector<double> levels = {0, 1, 1, 0, 0, 1, 0};
  const Seen rise{ET::Rising, 1, std::nullopt};
  const Seen fall{ET::Falling, 0, std::nullopt};
  const std::vector<EdgeCase> cases = {
      {"none", EdgeMode::None, {}},
      {"rising", EdgeMode::Rising, {rise, rise}},
      {"falling", EdgeMode::Falling, {fall, fall}},
      {"both", EdgeMode::Both, {rise, fall, rise, fall}},
  };
  for (const auto& c : cases) EXPECT_EQ(feed(with_edges(c.mode), levels), c.events) << c.name;
}

TEST(PinSamplerEdges, FirstSampleIsNoEdge) {
  EXPECT_TRUE(feed(with_edges(EdgeMode::Both), {1}).empty());
  EXPECT_TRUE(feed(with_edges(EdgeMode::Both), {0}).empty());
  EXPECT_TRUE(feed(with_edges(EdgeMode::Both), {1, 1, 1}).empty());
}

TEST(PinSamplerEdges, EdgeTimestampIsTheSampleTimestamp) {
  PinSampler sampler(with_edges(EdgeMode::Both));
  sampler.add(0, 100);
  sampler.add(1, 250);
  const auto slice = sampler.events().read(0, kAll);
  ASSERT_EQ(slice.entries.size(), 1u);
  EXPECT_EQ(slice.entries[0]->item.timestamp_ms, 250);
}

TEST(PinSamplerEdges, AddEdgeQueuesHardwareEdgesThatTheModeWants) {
  PinSampler rising(with_edges(EdgeMode::Rising));
  rising.add_edge(true, 1);
  rising.add_edge(false, 2);
  rising.add_edge(true, 3);
  EXPECT_EQ(events_of(rising), (std::vector<Seen>{{ET::Rising, 1, std::nullopt}, {ET::Rising, 1, std::nullopt}}));

  PinSampler both(with_edges(EdgeMode::Both));
  both.add_edge(false, 7);
  const auto slice = both.events().read(0, kAll);
  ASSERT_EQ(slice.entries.size(), 1u);
  EXPECT_EQ(slice.entries[0]->item.type, ET::Falling);
  EXPECT_EQ(slice.entries[0]->item.timestamp_ms, 7);
  // Hardware edges do not count as samples.
  EXPECT_EQ(both.summary().count, 0u);
}

TEST(PinSamplerEdges, AddEdgeWithoutEdgesConfiguredQueuesNothing) {
  PinSampler sampler(plain());
  sampler.add_edge(true, 1);
  EXPECT_TRUE(sampler.events().read(0, kAll).entries.empty());
}

TEST(PinSamplerEvents, ThresholdsAndEdgesShareOneQueueInOrder) {
  auto options = with_thresholds(0.5, 0.5, 0);
  options.edges = EdgeMode::Both;
  PinSampler sampler(options);
  sampler.add(0, 1);  // low
  sampler.add(1, 2);  // high, then rising
  EXPECT_EQ(
      events_of(sampler),
      (std::vector<Seen>{{ET::ThresholdLow, 0, 0.5}, {ET::ThresholdHigh, 1, 0.5}, {ET::Rising, 1, std::nullopt}}));
}

TEST(EventTypeName, SpellsEveryTypeAsTheProtocolDoes) {
  EXPECT_EQ(event_type_name(ET::ThresholdHigh), "threshold_high");
  EXPECT_EQ(event_type_name(ET::ThresholdLow), "threshold_low");
  EXPECT_EQ(event_type_name(ET::BackInRange), "in_range");
  EXPECT_EQ(event_type_name(ET::Rising), "rising");
  EXPECT_EQ(event_type_name(ET::Falling), "falling");
}

}  // namespace
}  // namespace mcpud
