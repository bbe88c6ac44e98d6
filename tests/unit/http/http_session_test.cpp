// SPDX-License-Identifier: MIT
// Unit tests of an MCP-over-HTTP session: notifications go to the stream, or
// wait in a bounded backlog until one opens.
#include "http_session.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mcpud::http {
namespace {

class RecordingStream final : public EventStream {
 public:
  void send_event(std::string_view message) override { events.emplace_back(message); }
  void close() override { closed = true; }
  std::vector<std::string> events;
  bool closed = false;
};

TEST(McpHttpSession, PushesGoToTheStreamOnceAttached) {
  McpHttpSession session("id", 1024);
  auto stream = std::make_shared<RecordingStream>();
  session.attach(stream);
  session.push("a");
  EXPECT_EQ(stream->events, std::vector<std::string>{"a"});
  EXPECT_TRUE(session.has_stream());
}

TEST(McpHttpSession, BacklogIsBoundedAndSentOnAttach) {
  McpHttpSession session("id", 10);
  session.attach(std::make_shared<RecordingStream>());  // its client listened, then its stream went
  for (const char* message : {"1111", "2222", "3333"}) session.push(message);
  EXPECT_EQ(session.backlog_size(), 2u);  // 12 bytes > 10: the oldest went
  auto stream = std::make_shared<RecordingStream>();
  session.attach(stream);
  EXPECT_EQ(stream->events, (std::vector<std::string>{"2222", "3333"}));
  EXPECT_EQ(session.backlog_size(), 0u);
}

TEST(McpHttpSession, BacklogKeepsOneCopyOfALookAgainNotificationTheNewest) {
  const std::string tools = R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}})";
  const std::string updated =
      R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"mcpu://pins/led"}})";
  const std::string log = R"({"jsonrpc":"2.0","method":"notifications/message","params":{"data":"x"}})";
  McpHttpSession session("id", 4096);
  session.attach(std::make_shared<RecordingStream>());  // gone again at once
  for (const auto& message : {tools, updated, log, tools, log, updated, tools}) session.push(message);
  auto stream = std::make_shared<RecordingStream>();
  session.attach(stream);
  // Log lines are kept as they came; the changes once each, where they last came.
  EXPECT_EQ(stream->events, (std::vector<std::string>{log, log, updated, tools}));
}

TEST(McpHttpSession, BeforeItsFirstStreamOnlyWhatChangedWaits) {
  const std::string tools = R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}})";
  const std::string log = R"({"jsonrpc":"2.0","method":"notifications/message","params":{"data":"x"}})";
  McpHttpSession session("id", 4096);
  for (const auto& message : {log, tools, log}) session.push(message);
  EXPECT_EQ(session.backlog_size(), 1u) << "a client that never listened kept its log lines";
  auto stream = std::make_shared<RecordingStream>();
  session.attach(stream);
  EXPECT_EQ(stream->events, std::vector<std::string>{tools});
}

TEST(McpHttpSession, EndClosesTheStreamAndDropsState) {
  McpHttpSession session("id", 10);
  auto stream = std::make_shared<RecordingStream>();
  session.attach(stream);
  session.state = std::make_unique<rpc::ClientState>();
  session.end();
  EXPECT_TRUE(stream->closed);
  EXPECT_EQ(session.state, nullptr);
}

TEST(McpHttpSession, AGoneStreamMeansBacklogAgain) {
  McpHttpSession session("id", 100);
  session.attach(std::make_shared<RecordingStream>());  // released at once
  EXPECT_FALSE(session.has_stream());
  session.push("x");  // its client listened: what it missed waits
  EXPECT_EQ(session.backlog_size(), 1u);
}

}  // namespace
}  // namespace mcpud::http
