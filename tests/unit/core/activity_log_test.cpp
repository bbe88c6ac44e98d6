// SPDX-License-Identifier: MIT
// Unit tests of the activity feed: interest on the EventHub, calls observed by
// the registry with their caller, and the bounded histories.
#include "mcpud/core/activity_log.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "mcpud/core/log_tail.hpp"
#include "mcpud/core/tool_registry.hpp"

namespace mcpud {
namespace {

using nlohmann::json;

// A registry with one tool, "echo", whose calls an ActivityLog observes.
class ActivityLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Tool tool;
    tool.name = "echo";
    tool.input_schema = {{"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}};
    tool.invoke = [](json args, ToolReply reply) { reply(std::move(args)); };
    ASSERT_TRUE(registry.add(std::move(tool)));
    registry.observe_calls(activity);
    activity->show_details(true);
  }
  void call(json args, const Caller& caller = {}) {
    registry.call(caller, "echo", std::move(args), [](ToolResult) {});
  }

  EventHub hub;
  ToolRegistry registry;
  std::shared_ptr<ActivityLog> activity = std::make_shared<ActivityLog>(hub);
};

TEST(EventHubInterest, IsCountedWhileHeldAndOutlivesTheHub) {
  EventHub::Interest survivor;
  {
    EventHub hub;
    EXPECT_FALSE(hub.wanted(EventKind::ToolCalled));
    auto a = hub.want(EventKind::ToolCalled);
    {
      auto b = hub.want(EventKind::ToolCalled);
      EXPECT_TRUE(hub.wanted(EventKind::ToolCalled));
      EXPECT_FALSE(hub.wanted(EventKind::LogLine));
    }
    EXPECT_TRUE(hub.wanted(EventKind::ToolCalled));
    a.reset();
    EXPECT_FALSE(hub.wanted(EventKind::ToolCalled));
    survivor = hub.want(EventKind::LogLine);
  }
  survivor.reset();  // the hub is gone: nothing to count down
}

TEST_F(ActivityLogTest, WithoutDetailsACallIsItsToolAndOutcomeOnly) {
  activity->show_details(false);
  auto interest = hub.want(EventKind::ToolCalled);
  call({{"n", 1}}, Caller{.door = "http", .peer = "127.0.0.1"});
  call({{"n", "x"}});
  const auto entries = activity->snapshot()["entries"];
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["tool"], "echo");
  EXPECT_EQ(entries[0]["ok"], true);
  EXPECT_FALSE(entries[0].contains("arguments")) << entries[0];
  EXPECT_FALSE(entries[0].contains("result")) << entries[0];
  EXPECT_EQ(entries[1]["error"]["code"], -32602) << "the outcome stays";
  EXPECT_FALSE(entries[1].contains("arguments")) << entries[1];
}

TEST_F(ActivityLogTest, RecordsNothingWhileNobodyWantsIt) {
  call({{"n", 1}});
  EXPECT_TRUE(activity->snapshot()["entries"].empty());
}

TEST_F(ActivityLogTest, PublishesEachCallWithItsCallerOutcomeAndDuration) {
  auto interest = hub.want(EventKind::ToolCalled);
  std::vector<Event> seen;
  auto subscription = hub.subscribe([&](const Event& e) { seen.push_back(e); });
  call({{"n", 1}}, Caller{.door = "tcp", .peer = "127.0.0.1:5000"});
  call({{"n", "x"}});
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].kind, EventKind::ToolCalled);
  EXPECT_EQ(seen[0].data["door"], "tcp");
  EXPECT_EQ(seen[0].data["client"], "127.0.0.1:5000");
  EXPECT_EQ(seen[0].data["arguments"], (json{{"n", 1}}));
  EXPECT_EQ(seen[0].data["ok"], true);
  EXPECT_GE(seen[0].data["duration_ms"].get<double>(), 0.0);
  EXPECT_EQ(seen[1].data["door"], "internal") << "a call from inside the daemon";
  EXPECT_EQ(seen[1].data["ok"], false);
  EXPECT_EQ(seen[1].data["error"]["code"], -32602);
  EXPECT_EQ(activity->snapshot()["entries"].size(), 2u);
}

TEST_F(ActivityLogTest, KeepsABoundedHistoryAndBoundedValues) {
  auto interest = hub.want(EventKind::ToolCalled);
  for (std::size_t i = 0; i < ActivityLog::kCapacity + 5; ++i) call({{"n", i}});
  const auto snapshot = activity->snapshot();
  EXPECT_EQ(snapshot["entries"].size(), ActivityLog::kCapacity);
  EXPECT_EQ(snapshot["dropped"], 5);
  EXPECT_EQ(snapshot["entries"][0]["seq"], 6);
  EXPECT_TRUE(bounded_copy(json(std::string(2000, 'x')), 1024).get<std::string>().starts_with("(2002 bytes"));
}

TEST(LogTail, KeepsTheLinesTheLoggerWritesAndPublishesThemWhenWanted) {
  EventHub hub;
  LogTail tail(hub);
  auto interest = hub.want(EventKind::LogLine);
  std::vector<Event> seen;
  auto subscription = hub.subscribe([&](const Event& e) { seen.push_back(e); });
  log::warn("test", "disk ", 97, "% full");
  const auto entries = tail.snapshot()["entries"];
  ASSERT_FALSE(entries.empty());
  EXPECT_EQ(entries.back()["message"], "disk 97% full");
  EXPECT_EQ(entries.back()["level"], "warning");
  EXPECT_EQ(entries.back()["category"], "test");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].kind, EventKind::LogLine);
}

}  // namespace
}  // namespace mcpud
