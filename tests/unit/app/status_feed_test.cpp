// SPDX-License-Identifier: MIT
// The status feed: nothing touched, timed or built without a subscriber; a
// burst of changes is one push; pushes are at least kMinInterval apart.
#include <chrono>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "status_feed.hpp"

namespace mcpud::app {
namespace {

using namespace std::chrono_literals;

class StatusFeedTest : public ::testing::Test {
 protected:
  StatusFeedTest() {
    heard_ = events_.subscribe([this](const Event& event) {
      if (event.kind == EventKind::StatusChanged) pushes_.push_back(event.data);
    });
  }

  // Runs the loop until it has nothing left to do (the feed's timer included).
  void drain() {
    io_.restart();
    io_.run_for(2s);
  }

  boost::asio::io_context io_;
  EventHub events_;
  int builds_ = 0;
  StatusFeed feed_{io_, events_, [this] { return nlohmann::json{{"build", ++builds_}}; }};
  std::vector<nlohmann::json> pushes_;
  EventHub::Subscription heard_;
};

TEST_F(StatusFeedTest, WithoutASubscriberNothingIsPublishedTimedOrBuilt) {
  EXPECT_EQ(events_.listener_count(), 1u) << "the feed is no hub subscriber (the one is this test's)";
  events_.touch_status("clients");
  EXPECT_EQ(io_.poll(), 0u) << "a timer was started";
  EXPECT_EQ(builds_, 0);
}

TEST_F(StatusFeedTest, ABurstOfChangesIsOnePushOfTheStatusBuiltThen) {
  auto interest = events_.want(EventKind::StatusChanged);
  for (int i = 0; i < 50; ++i) events_.touch_status("clients");
  drain();
  ASSERT_EQ(pushes_.size(), 1u);
  EXPECT_EQ(pushes_[0]["build"], 1);
  EXPECT_EQ(builds_, 1);
}

TEST_F(StatusFeedTest, PushesAreAtLeastTheIntervalApart) {
  auto interest = events_.want(EventKind::StatusChanged);
  events_.touch_status("clients");
  drain();
  const auto first = std::chrono::steady_clock::now();
  events_.touch_status("uplinks");
  drain();
  ASSERT_EQ(pushes_.size(), 2u);
  EXPECT_GE(std::chrono::steady_clock::now() - first, StatusFeed::kMinInterval - 5ms);
}

TEST_F(StatusFeedTest, ASubscriberThatLeavesBeforeThePushGetsNothingBuilt) {
  auto interest = events_.want(EventKind::StatusChanged);
  events_.touch_status("clients");
  interest.reset();
  drain();
  EXPECT_TRUE(pushes_.empty());
  EXPECT_EQ(builds_, 0);
}

TEST_F(StatusFeedTest, StopDropsAWaitingPush) {
  auto interest = events_.want(EventKind::StatusChanged);
  events_.touch_status("clients");
  feed_.stop();
  drain();
  EXPECT_TRUE(pushes_.empty());
}

}  // namespace
}  // namespace mcpud::app
