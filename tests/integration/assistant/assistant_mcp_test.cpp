// SPDX-License-Identifier: MIT
// MCP through the voice-assistant uplink, with a test backend playing the
// server: initialize and its capabilities, tools/list paging and user-only
// tools, tools/call answers and errors, ping, and the notifications mcpud pushes.
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "assistant/assistant_fixture.hpp"
#include "support/line_client.hpp"

namespace mcpud::it {
namespace {

TEST_F(AssistantUplinkTest, InitializeAnswersAndStoresTheVisionCapability) {
  const std::string capabilities_file = (daemon_.temp_dir().path() / "capabilities.json").string();
  start("capabilities_file = \"" + capabilities_file + "\"");
  auto peer = connect();
  ASSERT_TRUE(peer);
  const auto init = peer->result(
      "initialize",
      {{"protocolVersion", "2024-11-05"},
       {"capabilities", {{"vision", {{"url", "http://vision.example/upload"}, {"token", "vision-secret"}}}}}});
  EXPECT_EQ(init["protocolVersion"], "2024-11-05");
  EXPECT_EQ(init["serverInfo"]["name"], "assistant-test");
  EXPECT_TRUE(init["capabilities"].contains("tools"));

  // The server (and any other client) sees the capability, without its token.
  const auto status = peer->result("tools/call", {{"name", "assistant_status"}});
  const auto& seen = status["structuredContent"];
  EXPECT_EQ(seen["state"], "connected");
  EXPECT_EQ(seen["session_id"], "session-1");
  EXPECT_EQ(seen["initialized"], true);
  EXPECT_EQ(seen["capabilities"]["vision"]["url"], "http://vision.example/upload");
  EXPECT_EQ(seen["capabilities"]["vision"]["token"], "(set)");
  const int port = daemon_.wait_for_port();
  auto operator_client = LineClient::connect_tcp(port);
  ASSERT_TRUE(operator_client);
  const auto over_tcp = operator_client->result("assistant_status");
  EXPECT_EQ(over_tcp["capabilities"]["vision"]["url"], "http://vision.example/upload");
  EXPECT_EQ(over_tcp.dump().find("vision-secret"), std::string::npos);

  // The board's own programs get the token from a file only its owner reads.
  struct stat info {};
  ASSERT_EQ(::stat(capabilities_file.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  std::ifstream in(capabilities_file);
  const auto written = json::parse(in);
  EXPECT_EQ(written["capabilities"]["vision"]["token"], "vision-secret");
  EXPECT_EQ(written["session_id"], "session-1");
  EXPECT_EQ(daemon_.log().find("vision-secret"), std::string::npos);

  // The capabilities belong to the session: gone when it ends.
  peer->connection().drop();
  EXPECT_TRUE(eventually([&] { return ::stat(capabilities_file.c_str(), &info) != 0; }, 10s));
}

TEST_F(AssistantUplinkTest, InitializeWithoutAVersionGetsTheFirmwaresVersion) {
  start();
  auto peer = connect();
  ASSERT_TRUE(peer);
  const auto init = peer->result("initialize", {{"capabilities", json::object()}});
  EXPECT_EQ(init["protocolVersion"], "2024-11-05") << "what the voice-assistant firmware answers";
  EXPECT_EQ(peer->result("initialize", {{"protocolVersion", "2025-06-18"}})["protocolVersion"], "2025-06-18");
}

TEST_F(AssistantUplinkTest, MessagesForAnotherSessionAreIgnored) {
  start();
  auto peer = initialized();
  ASSERT_TRUE(peer);
  peer->connection().send(json{{"session_id", "someone-else"},
                               {"type", "mcp"},
                               {"payload", {{"jsonrpc", "2.0"}, {"id", 900}, {"method", "ping"}}}}
                              .dump());
  // Later replies still carry this session's id (request() checks every message), and
  // the foreign request got no answer.
  EXPECT_EQ(peer->result("ping"), json::object());
  EXPECT_EQ(peer->result("tools/call", {{"name", "gpio_read"}, {"arguments", {{"pin", 2}}}})["isError"], false);
  EXPECT_TRUE(daemon_.wait_for_log("ignoring messages for session \"someone-else\""));
}

TEST_F(AssistantUplinkTest, ToolsListPagesByBytesAndListsUserOnlyToolsOnRequest) {
  start();
  auto peer = initialized();
  ASSERT_TRUE(peer);
  const auto list_all = [&](bool with_user_tools) {
    std::vector<json> tools;
    std::string cursor;
    int pages = 0;
    do {
      auto page = peer->result("tools/list", {{"cursor", cursor}, {"withUserTools", with_user_tools}});
      ++pages;
      // A page holds what fits in page_bytes, or one tool that alone is larger.
      if (page["tools"].size() > 1) {
        EXPECT_LE(page["tools"].dump().size(), 513u) << page.dump();
      }
      for (auto& tool : page["tools"]) tools.push_back(tool);
      cursor = page.value("nextCursor", "");
    } while (!cursor.empty() && pages < 100);
    EXPECT_GT(pages, 3) << "page_bytes = 512 should split the list";
    return tools;
  };
  const auto names_of = [](const std::vector<json>& tools) {
    std::set<std::string> names;
    for (const auto& tool : tools) names.insert(tool["name"].get<std::string>());
    return names;
  };
  const auto plain = list_all(false);
  const auto with_user = list_all(true);
  EXPECT_EQ(names_of(plain).size(), plain.size()) << "a tool listed twice across pages";
  EXPECT_TRUE(names_of(plain).contains("gpio_write"));
  EXPECT_FALSE(names_of(plain).contains("assistant_status"));
  ASSERT_TRUE(names_of(with_user).contains("assistant_status"));
  EXPECT_EQ(with_user.size(), plain.size() + 1);
  for (const auto& tool : with_user) {
    if (tool["name"] == "assistant_status") {
      EXPECT_EQ(tool["annotations"]["audience"], json::array({"user"}));
    }
  }
}

// A batch whose replies together would be megabytes is bounded while it is
// built, as on the line transports: the replies past the bound are
// REPLY_TOO_LARGE, and the link stays up.
TEST_F(AssistantUplinkTest, ABatchsRepliesAreBoundedWhileTheyAreBuilt) {
  start("max_message_bytes = 65536");
  auto peer = initialized();
  ASSERT_TRUE(peer);
  json batch = json::array();
  for (int i = 0; i < 1000; ++i) batch.push_back({{"jsonrpc", "2.0"}, {"id", 100 + i}, {"method", "tools/list"}});
  peer->send_mcp(batch);
  std::optional<json> replies;
  while ((replies = peer->next_payload(30s)) && !replies->is_array()) {
  }
  ASSERT_TRUE(replies) << "no reply to the batch; log:\n" << daemon_.log();
  ASSERT_EQ(replies->size(), 1000u);
  const auto too_large = std::count_if(replies->begin(), replies->end(), [](const json& reply) {
    return reply.contains("error") && reply["error"]["data"].value("code", "") == "REPLY_TOO_LARGE";
  });
  EXPECT_GT(too_large, 500) << "a batch of 1000 pages fit in 64 KiB";
  EXPECT_LT(too_large, 1000) << "the first pages fit";
  EXPECT_LE(replies->dump().size(), 65536u + 1000u * 300u);
  EXPECT_TRUE(peer->result("tools/list").contains("tools")) << "the link went down";
}

TEST_F(AssistantUplinkTest, ToolsCallAnswersAndReportsErrorsProperly) {
  start();
  auto peer = initialized();
  ASSERT_TRUE(peer);
  const auto good = peer->result("tools/call", {{"name", "gpio_write"}, {"arguments", {{"pin", 2}, {"value", true}}}});
  EXPECT_EQ(good["isError"], false);
  EXPECT_EQ(
      peer->result("tools/call", {{"name", "gpio_read"}, {"arguments", {{"pin", 2}}}})["structuredContent"]["value"],
      true);

  // As the firmware of seed 003 answers it.
  const auto unknown = peer->request("tools/call", {{"name", "self.no_such_tool"}, {"arguments", json::object()}});
  EXPECT_EQ(unknown["error"]["code"], -32601);
  EXPECT_EQ(unknown["error"]["message"], "Unknown tool: self.no_such_tool");

  const auto bad =
      peer->request("tools/call", {{"name", "gpio_write"}, {"arguments", {{"pin", "two"}, {"value", true}}}});
  EXPECT_EQ(bad["error"]["code"], -32602);
  EXPECT_EQ(bad["error"]["message"], "arguments.pin: expected integer, got string");

  const auto missing = peer->request("tools/call", {{"arguments", json::object()}});
  EXPECT_EQ(missing["error"]["code"], -32602);
  EXPECT_EQ(missing["error"]["message"], "params.name: required");

  // A domain error is the tool's answer, not a protocol error.
  const auto domain =
      peer->result("tools/call", {{"name", "gpio_write"}, {"arguments", {{"pin", 4}, {"value", true}}}});
  EXPECT_EQ(domain["isError"], true);
  EXPECT_NE(domain["content"][0]["text"].get<std::string>().find("WRONG_PIN_TYPE"), std::string::npos) << domain.dump();

  EXPECT_EQ(peer->result("ping"), json::object());
  const auto unknown_method = peer->request("no/such/method");
  EXPECT_EQ(unknown_method["error"]["code"], -32601);
}

TEST_F(AssistantUplinkTest, ToolSetChangesAndPinEventsReachTheServer) {
  start();
  auto peer = initialized();
  ASSERT_TRUE(peer);

  auto event = peer->notification("notifications/pin_event");
  ASSERT_TRUE(event) << "no pin event pushed";
  EXPECT_EQ(event->at("params")["name"], "button");
  EXPECT_TRUE(event->at("params").contains("value"));
  EXPECT_FALSE(event->contains("id"));

  // A reload that removes the serial tools: the same session hears of it.
  reload("", "\n[serial]\nenabled = false\n");
  ASSERT_TRUE(peer->notification("notifications/tools/list_changed")) << daemon_.log();
  bool serial_listed = false;
  std::string cursor;
  do {
    auto page = peer->result("tools/list", {{"cursor", cursor}});
    for (const auto& tool : page["tools"]) serial_listed |= tool["name"].get<std::string>().starts_with("serial_");
    cursor = page.value("nextCursor", "");
  } while (!cursor.empty());
  EXPECT_FALSE(serial_listed);
  // The uplink's settings did not change: the session above survived the reload.
  EXPECT_EQ(daemon_.count_in_log("connected, session"), 1u);
}

TEST_F(AssistantUplinkTest, PinEventsCanBeLeftToResourceSubscriptions) {
  start("push_pin_events = false");
  auto peer = initialized();
  ASSERT_TRUE(peer);
  peer->result("resources/subscribe", {{"uri", "mcpu://pins/button"}});
  const auto updated = peer->notification("notifications/resources/updated");
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->at("params")["uri"], "mcpu://pins/button");
  // With pushing on, a pin_event for the same edge would have come first.
  for (const auto& seen : peer->notifications()) EXPECT_NE(seen["method"], "notifications/pin_event");
}

}  // namespace
}  // namespace mcpud::it
