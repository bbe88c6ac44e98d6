// SPDX-License-Identifier: MIT
// The bounded queue of messages published while disconnected.
#include "outbox.hpp"

#include <gtest/gtest.h>

using mcpud::mqtt::Message;
using mcpud::mqtt::Outbox;

namespace {
Message msg(std::string payload, int qos) { return Message{"t", std::move(payload), qos}; }
}  // namespace

TEST(MqttOutbox, FullQueuePushesOutTheOldestQos0Message) {
  Outbox box(3);
  ASSERT_TRUE(box.push(msg("a", 1)));
  ASSERT_TRUE(box.push(msg("b", 0)));
  ASSERT_TRUE(box.push(msg("c", 0)));
  ASSERT_TRUE(box.push(msg("d", 1)));
  auto all = box.take_all();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].payload, "a");
  EXPECT_EQ(all[1].payload, "c");
  EXPECT_EQ(all[2].payload, "d");
  EXPECT_EQ(box.dropped(), 1u);
  EXPECT_EQ(box.size(), 0u);
}

TEST(MqttOutbox, QueueFullOfQos1RefusesMore) {
  Outbox box(2);
  ASSERT_TRUE(box.push(msg("a", 1)));
  ASSERT_TRUE(box.push(msg("b", 1)));
  EXPECT_FALSE(box.push(msg("c", 1)));
  EXPECT_FALSE(box.push(msg("d", 0)));
  EXPECT_EQ(box.size(), 2u);
  EXPECT_EQ(box.dropped(), 2u);
}

TEST(MqttOutbox, MessagesInFlightCountAgainstTheBound) {
  Outbox box(3);
  EXPECT_TRUE(box.push(msg("a", 1), 2));
  EXPECT_FALSE(box.push(msg("b", 1), 2));
}
