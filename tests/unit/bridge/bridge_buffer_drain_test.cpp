// SPDX-License-Identifier: MIT
// Unit tests of draining device buffers without losing or duplicating samples.
#include <gtest/gtest.h>

#include "buffer_drain.hpp"

namespace mcpud::bridge {
namespace {

using nlohmann::json;

std::vector<double> values_of(const Result<std::vector<Sample>>& samples) {
  std::vector<double> out;
  if (samples) {
    for (const auto& s : *samples) out.push_back(s.value);
  }
  return out;
}

json ring(int first, int last) {
  json values = json::array();
  for (int v = first; v <= last; ++v) values.push_back(v);
  return {{"pin", "sensor"}, {"count", values.size()}, {"values", values}};
}

TEST(BufferDrain, OverlapModeTakesOnlyWhatFollowsThePreviousWindow) {
  BufferDrain drain(34, 100, 5);
  EXPECT_EQ(values_of(drain.accept(ring(1, 3), 10'000)), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(values_of(drain.accept(ring(1, 5), 10'200)), (std::vector<double>{4, 5})) << "ring still filling";
  EXPECT_EQ(values_of(drain.accept(ring(3, 7), 10'400)), (std::vector<double>{6, 7})) << "ring wrapped";
  EXPECT_EQ(values_of(drain.accept(ring(3, 7), 10'450)), std::vector<double>{}) << "nothing new";
  EXPECT_FALSE(drain.cursor_mode());
}

TEST(BufferDrain, ConstantSignalIsNotMistakenForNoNewSamples) {
  BufferDrain drain(34, 100, 5);
  const json constant = {{"values", {7, 7, 7, 7, 7}}};
  EXPECT_EQ(values_of(drain.accept(constant, 10'000)).size(), 5u);
  // 300 ms later about three samples are new; the overlap that fits the elapsed time wins.
  EXPECT_EQ(values_of(drain.accept(constant, 10'300)).size(), 3u);
}

TEST(BufferDrain, TimestampsAreInferredBackFromNowAndNeverRunBackwards) {
  BufferDrain drain(34, 100, 5);
  const auto first = drain.accept(ring(1, 3), 10'000);
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)[0].timestamp_ms, 9'800);
  EXPECT_EQ((*first)[2].timestamp_ms, 10'000);
  const auto second = drain.accept(ring(1, 4), 10'050);  // read a little early
  ASSERT_TRUE(second);
  ASSERT_EQ(second->size(), 1u);
  EXPECT_EQ((*second)[0].timestamp_ms, 10'050);
}

TEST(BufferDrain, CursorModeUsesTheDevicesSequenceNumbers) {
  BufferDrain drain(34, 100, 20);
  EXPECT_EQ(drain.request()["since"], 0);
  const json reply = {{"values", {1, 2, 3}}, {"first_seq", 1}, {"next_since", 3}, {"last_seq", 3}};
  EXPECT_EQ(values_of(drain.accept(reply, 10'000)), (std::vector<double>{1, 2, 3}));
  EXPECT_TRUE(drain.cursor_mode());
  EXPECT_EQ(drain.request()["since"], 3);
  const json more = {{"values", {4}}, {"first_seq", 4}, {"next_since", 4}, {"last_seq", 6}};  // limited: 5 and 6 wait
  const auto samples = drain.accept(more, 10'400);
  ASSERT_EQ(values_of(samples), std::vector<double>{4});
  EXPECT_EQ((*samples)[0].timestamp_ms, 10'400 - 200) << "two newer samples exist on the device";
}

TEST(BufferDrain, DeviceRestartResetsTheCursor) {
  BufferDrain drain(34, 100, 20);
  ASSERT_TRUE(drain.accept({{"values", {1, 2, 3}}, {"next_since", 3}, {"last_seq", 3}}, 1'000));
  EXPECT_EQ(values_of(drain.accept({{"values", json::array()}, {"next_since", 1}, {"last_seq", 1}}, 2'000)),
            std::vector<double>{});
  EXPECT_EQ(drain.request()["since"], 0) << "the device's sequence started over";
}

TEST(BufferDrain, PinWithoutBufferStopsTheDrain) {
  BufferDrain drain(34, 100, 20);
  EXPECT_TRUE(drain.accept({{"pin", "x"}, {"buffer_available", false}, {"reason", "none"}}, 1'000));
  EXPECT_TRUE(drain.unavailable());
}

TEST(BufferDrain, MalformedRepliesAreErrors) {
  BufferDrain drain(34, 100, 20);
  EXPECT_FALSE(drain.accept(json::array(), 1'000));
  EXPECT_FALSE(drain.accept({{"values", {1, "two"}}}, 1'000));
}

TEST(BufferDrain, PeriodLetsTheRingNeverWrapUnread) {
  EXPECT_EQ(drain_period_ms(500, 20), 5'000u);
  EXPECT_EQ(drain_period_ms(1, 1), 200u);
  EXPECT_EQ(drain_period_ms(60'000, 300), 60'000u);
}

}  // namespace
}  // namespace mcpud::bridge
