// SPDX-License-Identifier: MIT
// The serial tool set through standard MCP: the same tools as over MCP/U, their
// failures as isError results, and received bytes pushed to a subscribed client.
#include <gtest/gtest.h>

#include "serial_fixture.hpp"

namespace mcpud::it {
namespace {

class SerialOverMcp : public SerialTest {
 protected:
  void initialize() {
    const json reply = result("initialize", {{"protocolVersion", "2025-06-18"},
                                             {"capabilities", json::object()},
                                             {"clientInfo", {{"name", "serial-test"}, {"version", "1"}}}});
    ASSERT_TRUE(reply["capabilities"].contains("resources")) << reply.dump();
  }

  // A tools/call result: {content, structuredContent, isError}.
  json call_tool(const std::string& name, const json& arguments) {
    return result("tools/call", {{"name", name}, {"arguments", arguments}});
  }
};

TEST_F(SerialOverMcp, ConnectSendReadAndDisconnectThroughToolsCall) {
  SerialPeer peer(link("ttyMCP"));
  start();
  initialize();
  const json opened = call_tool("serial_connect", {{"port", peer.link()}, {"baud", 921600}});
  ASSERT_EQ(opened["isError"], false) << opened.dump();
  const std::string id = opened["structuredContent"]["session_id"];
  EXPECT_EQ(opened["structuredContent"]["baud"], 921600);

  EXPECT_EQ(call_tool("serial_send", {{"session_id", id}, {"data", "version"}})["structuredContent"]["bytes_written"],
            8);
  EXPECT_EQ(peer.read(8), "version\n");
  ASSERT_TRUE(peer.write("fw 1.2.3\n"));
  const json read = call_tool("serial_read_line", {{"session_id", id}, {"timeout_ms", 5000}});
  ASSERT_EQ(read["isError"], false) << read.dump();
  EXPECT_EQ(read["structuredContent"]["data"], "fw 1.2.3") << read.dump();  // the line, without its end
  EXPECT_EQ(read["structuredContent"]["line_complete"], true);

  EXPECT_EQ(call_tool("serial_disconnect", {{"session_id", id}})["structuredContent"]["success"], true);
  const json gone = call_tool("serial_read", {{"session_id", id}});
  EXPECT_EQ(gone["isError"], true) << gone.dump();
  EXPECT_NE(gone["content"][0]["text"].get<std::string>().find(id), std::string::npos)
      << "the message names the unknown session: " << gone.dump();
}

TEST_F(SerialOverMcp, ReceivedBytesArePushedToASubscribedClient) {
  SerialPeer peer(link("ttyLOG"));
  start();
  initialize();
  const std::string id = call_tool("serial_connect", {{"port", peer.link()}})["structuredContent"]["session_id"];
  const std::string uri = "mcpu://serial/" + id;
  result("resources/subscribe", {{"uri", uri}});

  ASSERT_TRUE(peer.write("boot ok\n"));
  std::string pushed;
  while (pushed.find("boot ok\n") == std::string::npos) {
    const auto line = client().read_line(10s);
    ASSERT_TRUE(line) << "no notification for the received bytes; got so far: " << pushed;
    const json message = json::parse(*line, nullptr, false);
    if (message.value("method", "") != "notifications/resources/updated") continue;
    EXPECT_EQ(message["params"]["uri"], uri);
    pushed += message["params"]["data"].value("data", "");
  }
  // Pushing is in addition to buffering: a read still returns the same bytes.
  EXPECT_EQ(call_tool("serial_read", {{"session_id", id}, {"timeout_ms", 1000}})["structuredContent"]["data"],
            "boot ok\n");
}

}  // namespace
}  // namespace mcpud::it
