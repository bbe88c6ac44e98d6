// SPDX-License-Identifier: MIT
// User turns of the services uplink: answers gathered per TaskID until
// END_FRAME, a quiet period or the deadline.
#include "text_turns.hpp"

#include <gtest/gtest.h>

#include <optional>

namespace mcpud::uplinks {
namespace {

using namespace std::chrono_literals;

class TextTurnsTest : public ::testing::Test {
 protected:
  std::string open(TextTurns::Timing timing = {5s, 5s}) {
    return turns_.open([this](Result<std::string> r) { outcome_ = std::move(r); }, timing, "mcp00001");
  }
  // Runs the event loop until the turn has an outcome (or nothing is left to run).
  void run() {
    io_.restart();
    while (!outcome_ && io_.run_one() > 0) {
    }
  }
  static StartFrame frame(FrameType type, const std::string& task, std::string content = {}) {
    return {type, task, 0, std::move(content)};
  }

  boost::asio::io_context io_;
  TextTurns turns_{io_};
  std::optional<Result<std::string>> outcome_;
};

TEST_F(TextTurnsTest, OpensFreshTaskIds) {
  const auto a = open();
  const auto b = open();
  EXPECT_EQ(a.size(), 8u);
  EXPECT_NE(a, b);
  EXPECT_NE(a, "00000000");
  EXPECT_NE(a, "mcp00001");
  EXPECT_EQ(turns_.size(), 2u);
}

TEST_F(TextTurnsTest, GathersTextUntilEndFrame) {
  const auto task = open();
  EXPECT_FALSE(turns_.on_frame(frame(FrameType::Text, "someone", "not ours")));
  EXPECT_TRUE(turns_.on_frame(frame(FrameType::Text, task, "It is ")));
  EXPECT_TRUE(turns_.on_frame(frame(FrameType::Text, task, "noon")));
  EXPECT_FALSE(outcome_);
  EXPECT_TRUE(turns_.on_frame(frame(FrameType::EndFrame, task)));
  ASSERT_TRUE(outcome_ && *outcome_);
  EXPECT_EQ(**outcome_, "It is noon");
  EXPECT_EQ(turns_.size(), 0u);
}

TEST_F(TextTurnsTest, AQuietPeriodAfterTextCompletesTheAnswer) {
  const auto task = open({10s, 20ms});
  turns_.on_frame(frame(FrameType::Text, task, "Hi"));
  run();
  ASSERT_TRUE(outcome_ && *outcome_);
  EXPECT_EQ(**outcome_, "Hi");
}

TEST_F(TextTurnsTest, NoAnswerByTheDeadlineIsATimeout) {
  open({20ms, 10s});
  run();
  ASSERT_TRUE(outcome_);
  ASSERT_FALSE(*outcome_);
  EXPECT_EQ(outcome_->error().name, "TIMEOUT");
}

TEST_F(TextTurnsTest, FailAllEndsEveryTurnWithTheError) {
  open();
  turns_.fail_all(Error::domain(DomainError::UplinkNotConnected, "lost"));
  ASSERT_TRUE(outcome_ && !*outcome_);
  EXPECT_EQ(outcome_->error().name, "UPLINK_NOT_CONNECTED");
  EXPECT_EQ(turns_.size(), 0u);
}

}  // namespace
}  // namespace mcpud::uplinks
