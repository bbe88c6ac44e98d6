// SPDX-License-Identifier: MIT
// Unit tests of the MCP dialect: version negotiation, tools/list paging and
// user-only tools, tools/call results and errors, the envelope, subscriptions.
#include "mcpud/dialects/mcp_dialect.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "mcpud/core/activity_log.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/dialects/client_session.hpp"
#include "mcpud/dialects/mcpu_subscribe.hpp"
#include "recording_client.hpp"

namespace mcpud::dialects {
namespace {

using nlohmann::json;

Tool make_mcp_tool(std::string name, bool read_only = false) {
  Tool tool;
  tool.name = std::move(name);
  tool.description = "the " + tool.name + " tool, with a description long enough to take some room in a page";
  tool.input_schema = {{"type", "object"}, {"properties", {{"pin", {{"type", "integer"}}}}}};
  tool.annotations.read_only = read_only;
  tool.owner = "test";
  tool.invoke = [](json args, ToolReply reply) {
    if (args.value("pin", 0) == 99)
      return reply(std::unexpected(Error::domain(DomainError::PinNotFound, "Pin not found: 99")));
    reply(json{{"pin", args.value("pin", 0)}});
  };
  return tool;
}

class McpDialect : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"gpio_write", "gpio_read", "adc_read", "reboot_board", "get_info"}) {
      ASSERT_TRUE(registry.add(make_mcp_tool(name, std::string(name) == "gpio_read")));
    }
    registry.set_user_only_names({"*reboot*"});
    install_mcp_dialect(dispatcher, hub, server());
    install_mcpu_subscribe(dispatcher, hub, [](std::string_view uri, const Caller&) { return known(uri); });
  }
  // The client leaves, as a transport's does: what its requests still wait for
  // (an open subscriptions/listen) ends.
  void TearDown() override { client.cancel_pending(); }

  // What MCP/U subscribe takes as existing here: anything but "missing" resources.
  static bool known(std::string_view uri) { return uri.find("missing") == std::string_view::npos; }

  McpServer server() {
    return {[] { return std::string("board-1"); },
            "1.2.3",
            [this] { return page_bytes; },
            [] {
              return json::array({{{"uri", "mcpu://pins/led"}}});
            },
            [](std::string_view uri, ToolReply reply) {
              if (uri == "mcpu://pins/led") return reply(json{{"value", true}});
              reply(std::unexpected(
                  Error::domain(DomainError::ResourceNotFound, "Resource not found: " + std::string(uri))));
            },
            [](std::string_view uri, const Caller&) {
              return uri == "mcpu://pins/led" || uri == "mcpu://serial/1" || uri == "mcpu://daemon/status";
            }};
  }

  // The parsed reply to one request line from `client`.
  json request(const std::string& line) {
    std::vector<json> out;
    engine.handle_line(line, client, [&](std::string r) { out.push_back(json::parse(r)); });
    EXPECT_EQ(out.size(), 1u) << line;
    return out.empty() ? json() : out[0];
  }
  json call(const std::string& method, const json& params) {
    return request(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}}.dump());
  }

  std::size_t page_bytes = 8000;
  ToolRegistry registry;
  EventHub hub;
  rpc::Dispatcher dispatcher{registry};
  rpc::Engine engine{dispatcher};
  test_support::RecordingClient client;
};

TEST_F(McpDialect, Initialize_AnswersTheClientsVersionWhenSupported) {
  for (const auto version : kMcpVersions) {
    const auto reply = call("initialize", {{"protocolVersion", version}});
    EXPECT_EQ(reply["result"]["protocolVersion"], version);
  }
  const auto reply = call("initialize", {{"protocolVersion", "2024-10-07"}});
  EXPECT_EQ(reply["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(reply["result"]["serverInfo"], json::parse(R"({"name":"board-1","version":"1.2.3"})"));
  EXPECT_EQ(reply["result"]["capabilities"]["tools"]["listChanged"], true);
  EXPECT_EQ(reply["result"]["capabilities"]["resources"]["subscribe"], true);
  EXPECT_EQ(reply["result"]["capabilities"]["resources"]["listChanged"], true);
}

// The _meta of a modern (2026-07-28) request; `extra` merged in.
json modern_meta(json extra = json::object()) {
  json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
               {"io.modelcontextprotocol/clientCapabilities", json::object()},
               {"io.modelcontextprotocol/clientInfo", {{"name", "unit"}, {"version", "1"}}}};
  meta.update(extra);
  return meta;
}

json modern(json params = json::object(), json extra_meta = json::object()) {
  params["_meta"] = modern_meta(std::move(extra_meta));
  return params;
}

TEST_F(McpDialect, Modern_DiscoverNamesVersionsCapabilitiesIdentityAndCaching) {
  const auto result = call("server/discover", modern())["result"];
  EXPECT_EQ(result["resultType"], "complete");
  EXPECT_EQ(result["supportedVersions"][0], "2026-07-28");
  EXPECT_NE(std::ranges::find(result["supportedVersions"], json("2025-11-25")), result["supportedVersions"].end());
  EXPECT_EQ(result["capabilities"]["tools"]["listChanged"], true);
  EXPECT_EQ(result["_meta"]["io.modelcontextprotocol/serverInfo"],
            json::parse(R"({"name":"board-1","version":"1.2.3"})"));
  EXPECT_NE(result["instructions"].get<std::string>().find("board-1"), std::string::npos);
  EXPECT_EQ(result["ttlMs"], kDiscoverTtlMs);
  EXPECT_EQ(result["cacheScope"], "public");
}

// The session-free HTTP path has no listen stream yet: its discover promises
// no notification it could not deliver.
TEST_F(McpDialect, Modern_DiscoverPromisesTheNotificationsListenDeliversOnEveryDoor) {
  for (const auto* door : {"http", "unix", "tcp", "stdio"}) {
    client.caller.door = door;
    const auto capabilities = call("server/discover", modern())["result"]["capabilities"];
    EXPECT_EQ(capabilities,
              json::parse(R"({"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},)"
                          R"("logging":{}})"))
        << door;
  }
}

TEST_F(McpDialect, Modern_AnUnsupportedVersionIsRefusedNamingTheSupportedOnes) {
  const auto error =
      call("tools/list", modern({}, {{"io.modelcontextprotocol/protocolVersion", "1900-01-01"}}))["error"];
  EXPECT_EQ(error["code"], -32022);
  EXPECT_EQ(error["data"]["requested"], "1900-01-01");
  EXPECT_EQ(error["data"]["supported"][0], "2026-07-28");
  // A legacy version is spoken through initialize, not named per request.
  EXPECT_EQ(
      call("tools/list", modern({}, {{"io.modelcontextprotocol/protocolVersion", "2025-11-25"}}))["error"]["code"],
      -32022);
}

TEST_F(McpDialect, Modern_MissingOrMalformedMetaKeysAreInvalidParams) {
  json params = modern();
  params["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
  auto error = call("tools/list", params)["error"];
  EXPECT_EQ(error["code"], -32602);
  EXPECT_NE(error["message"].get<std::string>().find("clientCapabilities"), std::string::npos);
  params["_meta"]["io.modelcontextprotocol/clientCapabilities"] = "all";
  EXPECT_EQ(call("tools/list", params)["error"]["code"], -32602);
  error = call("tools/list", modern({}, {{"io.modelcontextprotocol/logLevel", "verbose"}}))["error"];
  EXPECT_EQ(error["code"], -32602);
  EXPECT_NE(error["message"].get<std::string>().find("logLevel"), std::string::npos);
  EXPECT_TRUE(call("tools/list", modern({}, {{"io.modelcontextprotocol/logLevel", "debug"}})).contains("result"));
  // server/discover is modern only: without _meta it misses its version.
  EXPECT_EQ(call("server/discover", json::object())["error"]["code"], -32602);
}

TEST_F(McpDialect, Modern_TheHandshakeAndPerConnectionMethodsAreNotMethods) {
  for (const char* method :
       {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"}) {
    EXPECT_EQ(call(method, modern({{"uri", "mcpu://pins/led"}, {"level", "debug"}}))["error"]["code"], -32601)
        << method;
  }
  // Nor are MCP/U's tools-as-methods.
  EXPECT_EQ(call("gpio_read", modern({{"pin", 2}}))["error"]["code"], -32601);
  EXPECT_EQ(call("gpio_read", {{"pin", 2}})["result"], json::parse(R"({"pin":2})"));
}

TEST_F(McpDialect, Modern_ResultsCarryResultTypeAndTrueCachingHints) {
  const auto tools = call("tools/list", modern())["result"];
  EXPECT_EQ(tools["resultType"], "complete");
  EXPECT_EQ(tools["ttlMs"], kToolsListTtlMs);
  EXPECT_EQ(tools["cacheScope"], "public");
  const auto read = call("resources/read", modern({{"uri", "mcpu://pins/led"}}))["result"];
  EXPECT_EQ(read["resultType"], "complete");
  EXPECT_EQ(read["ttlMs"], 0);  // a live pin value
  EXPECT_EQ(read["cacheScope"], "private");
  EXPECT_EQ(call("resources/templates/list", modern())["result"]["ttlMs"], kTemplatesTtlMs);
  EXPECT_EQ(call("resources/list", modern())["result"]["cacheScope"], "public");
  const auto called = call("tools/call", modern({{"name", "gpio_read"}, {"arguments", {{"pin", 2}}}}))["result"];
  EXPECT_EQ(called["resultType"], "complete");
  EXPECT_EQ(called["structuredContent"], json::parse(R"({"pin":2})"));
  EXPECT_FALSE(called.contains("ttlMs"));
  // Legacy results stay as they were.
  EXPECT_FALSE(call("tools/list", json::object())["result"].contains("resultType"));
}

TEST_F(McpDialect, Modern_AnUnknownResourceIsInvalidParamsNever32002) {
  const auto error = call("resources/read", modern({{"uri", "mcpu://pins/missing"}}))["error"];
  EXPECT_EQ(error["code"], -32602);
  EXPECT_EQ(error["data"]["uri"], "mcpu://pins/missing");
  EXPECT_EQ(call("resources/read", {{"uri", "mcpu://pins/missing"}})["error"]["code"], -32002);
}

// No modern answer depends on an earlier request: a connection that negotiated
// 2025-03-26 (argument errors as JSON-RPC errors) still gets 2026-07-28's isError result.
TEST_F(McpDialect, Modern_AnswersDoNotDependOnWhatTheConnectionNegotiated) {
  call("initialize", {{"protocolVersion", "2025-03-26"}});
  const json bad_arguments = {{"name", "gpio_read"}, {"arguments", {{"pin", "x"}}}};
  EXPECT_EQ(call("tools/call", bad_arguments)["error"]["code"], -32602);
  const auto result = call("tools/call", modern(bad_arguments))["result"];
  EXPECT_EQ(result["isError"], true);
  EXPECT_EQ(result["resultType"], "complete");
  EXPECT_EQ(call("tools/call", modern({{"name", "nope"}}))["error"]["code"], -32602);
}

// A modern client never initializes: it gets no pushes it did not listen for.
TEST_F(McpDialect, Modern_RequestsDoNotEnrolTheClientInNotifications) {
  call("tools/list", modern());
  call("tools/call", modern({{"name", "gpio_read"}, {"arguments", {{"pin", 2}}}}));
  hub.publish(Event{EventKind::ToolsChanged, "test", json::object()});
  EXPECT_TRUE(client.pushed.empty());
}

// The messages pushed to the client with this method.
std::vector<json> pushed_of(const test_support::RecordingClient& client, std::string_view method) {
  std::vector<json> out;
  for (const auto& m : client.pushed)
    if (m.value("method", "") == method) out.push_back(m);
  return out;
}

TEST_F(McpDialect, Listen_AcknowledgesFirstThenSendsOnlyWhatWasAskedTagged) {
  std::vector<std::string> replies;
  engine.handle_line(
      json{{"jsonrpc", "2.0"},
           {"id", "l1"},
           {"method", "subscriptions/listen"},
           {"params", modern({{"notifications",
                               {{"toolsListChanged", true},
                                {"promptsListChanged", true},
                                {"resourceSubscriptions", {"mcpu://pins/led", "mcpu://pins/missing"}}}}})}}
          .dump(),
      client, [&](std::string r) { replies.push_back(std::move(r)); });
  EXPECT_TRUE(replies.empty()) << "the stream stays open";
  ASSERT_EQ(client.pushed.size(), 1u);
  const auto& ack = client.pushed[0];
  EXPECT_EQ(ack["method"], "notifications/subscriptions/acknowledged");
  EXPECT_EQ(ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "l1");
  EXPECT_EQ(ack["params"]["notifications"],
            json::parse(R"({"toolsListChanged":true,"resourceSubscriptions":["mcpu://pins/led"]})"));
  hub.publish(Event{EventKind::ToolsChanged, "test", json::object()});
  hub.publish(Event{EventKind::ResourcesChanged, "test", json::object()});  // not asked for
  hub.publish(Event{EventKind::PinChanged, "led", json{{"value", true}}});
  hub.publish(Event{EventKind::PinChanged, "other", json{{"value", true}}});               // not asked for
  hub.publish(Event{EventKind::Log, "test", json{{"level", "error"}, {"message", "x"}}});  // never on a listen
  ASSERT_EQ(client.pushed.size(), 3u);
  EXPECT_EQ(client.pushed[1]["method"], "notifications/tools/list_changed");
  EXPECT_EQ(client.pushed[1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "l1");
  EXPECT_EQ(client.pushed[2]["method"], "notifications/resources/updated");
  EXPECT_EQ(client.pushed[2]["params"]["uri"], "mcpu://pins/led");
  EXPECT_EQ(client.pushed[2]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "l1");
  // notifications/cancelled ends it: nothing more, and no response.
  engine.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"l1"}})", client,
                     [&](std::string r) { replies.push_back(std::move(r)); });
  hub.publish(Event{EventKind::ToolsChanged, "test", json::object()});
  EXPECT_EQ(client.pushed.size(), 3u);
  for (const auto& r : replies) EXPECT_TRUE(r.empty()) << r;
}

TEST_F(McpDialect, Listen_IsBoundedPerClientAndModernOnly) {
  for (int i = 0; i < 16; ++i) {
    engine.handle_line(
        json{{"jsonrpc", "2.0"}, {"id", i}, {"method", "subscriptions/listen"}, {"params", modern()}}.dump(), client,
        [](std::string) {});
  }
  EXPECT_EQ(pushed_of(client, "notifications/subscriptions/acknowledged").size(), 16u);
  const auto refused =
      request(json{{"jsonrpc", "2.0"}, {"id", 99}, {"method", "subscriptions/listen"}, {"params", modern()}}.dump());
  EXPECT_EQ(refused["error"]["code"], -32602);
  EXPECT_EQ(call("subscriptions/listen", json::object())["error"]["code"], -32602);
  EXPECT_EQ(call("subscriptions/listen", modern({{"notifications", {{"toolsListChanged", "yes"}}}}))["error"]["code"],
            -32602);
}

TEST_F(McpDialect, NegotiateVersion_FallsBackToNewestForMissingOrOddValues) {
  EXPECT_EQ(negotiate_version(json()), "2025-11-25");
  EXPECT_EQ(negotiate_version(json(20250618)), "2025-11-25");
  EXPECT_EQ(negotiate_version(json("2025-03-26")), "2025-03-26");
}

TEST_F(McpDialect, ToolsList_HidesUserOnlyToolsUnlessAsked) {
  auto names = [](const json& reply) {
    std::vector<std::string> out;
    for (const auto& t : reply["result"]["tools"]) out.push_back(t["name"]);
    return out;
  };
  EXPECT_EQ(names(call("tools/list", json::object())),
            (std::vector<std::string>{"gpio_write", "gpio_read", "adc_read", "get_info"}));
  const auto with_user = call("tools/list", {{"withUserTools", true}});
  EXPECT_EQ(names(with_user).size(), 5u);
  EXPECT_EQ(with_user["result"]["tools"][3]["annotations"]["audience"], json::array({"user"}));
  EXPECT_EQ(with_user["result"]["tools"][1]["annotations"]["readOnlyHint"], true);
  // Every hint is written, false ones too: a host reads an absent one as its
  // cautious default.
  EXPECT_EQ(with_user["result"]["tools"][0]["annotations"]["readOnlyHint"], false);
  for (const auto& tool : with_user["result"]["tools"]) {
    for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
      EXPECT_TRUE(tool["annotations"][hint].is_boolean()) << tool.dump();
    }
  }
}

TEST_F(McpDialect, ToolsList_PagesWithinTheBudgetAndCursorsResume) {
  page_bytes = 400;  // about two tools per page
  std::vector<std::string> all;
  json params = {{"withUserTools", true}};
  int pages = 0;
  while (true) {
    const auto reply = call("tools/list", params);
    const auto& result = reply["result"];
    ASSERT_FALSE(result["tools"].empty());
    EXPECT_LE(rpc::dump(result["tools"]).size(), 400u + 2);
    for (const auto& t : result["tools"]) all.push_back(t["name"]);
    ++pages;
    if (!result.contains("nextCursor")) break;
    params["cursor"] = result["nextCursor"];
  }
  EXPECT_GT(pages, 1);
  EXPECT_EQ(all, (std::vector<std::string>{"gpio_write", "gpio_read", "adc_read", "reboot_board", "get_info"}));
}

TEST_F(McpDialect, ToolsList_ATooLargeToolStillGetsAPageOfItsOwn) {
  page_bytes = 10;
  const auto reply = call("tools/list", json::object());
  EXPECT_EQ(reply["result"]["tools"].size(), 1u);
  EXPECT_EQ(reply["result"]["nextCursor"], "gpio_read");
}

TEST_F(McpDialect, ToolsList_RejectsUnknownCursorAndBadTypes) {
  EXPECT_EQ(call("tools/list", {{"cursor", "nope"}})["error"]["code"], -32602);
  const auto bad = call("tools/list", {{"withUserTools", "yes"}});
  EXPECT_EQ(bad["error"]["message"], "params.withUserTools: expected boolean, got string");
  EXPECT_EQ(call("tools/list", {{"cursor", 3}})["error"]["message"], "params.cursor: expected string, got number");
}

TEST_F(McpDialect, ToolsCall_GivesTextAndStructuredContent) {
  const auto reply = call("tools/call", {{"name", "gpio_read"}, {"arguments", {{"pin", 2}}}});
  EXPECT_EQ(reply["result"],
            json::parse(
                R"({"content":[{"type":"text","text":"{\"pin\":2}"}],"isError":false,"structuredContent":{"pin":2}})"));
}

// The reply is written as text, not through a json value: byte for byte what
// serializing the value would give, escapes included, and structuredContent
// only for an object.
TEST_F(McpDialect, ToolsCall_ReplyTextIsExactlyTheSerializedResult) {
  const json awkward = {{"s", "quote \" backslash \\ newline \n tab \t bell \x07 del \x7f \xc3\xa9"}, {"n", -1.5}};
  for (const json& value : {awkward, json::array({1, "two"}), json("plain")}) {
    Tool tool = make_mcp_tool("answer");
    tool.invoke = [value](json, ToolReply reply) { reply(value); };
    registry.remove_owner("test");
    ASSERT_TRUE(registry.add(std::move(tool)));
    std::vector<std::string> lines;
    engine.handle_line(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"answer"}})", client,
                       [&](std::string line) { lines.push_back(std::move(line)); });
    json expected = json::object();
    expected["content"] = json::array({{{"type", "text"}, {"text", rpc::dump(value)}}});
    expected["isError"] = false;
    if (value.is_object()) expected["structuredContent"] = value;
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], R"({"jsonrpc":"2.0","id":7,"result":)" + rpc::dump(expected) + "}");
  }
}

TEST_F(McpDialect, ToolsCall_ToolFailureIsAnErrorResult) {
  const auto reply = call("tools/call", {{"name", "gpio_read"}, {"arguments", {{"pin", 99}}}});
  EXPECT_EQ(reply["result"]["isError"], true);
  EXPECT_EQ(reply["result"]["content"][0]["text"], "PIN_NOT_FOUND: Pin not found: 99");
}

TEST_F(McpDialect, ToolsCall_UnknownToolAndBadArgumentsAreProtocolErrors) {
  EXPECT_EQ(call("tools/call", {{"name", "nope"}})["error"],
            json::parse(R"({"code":-32602,"message":"Unknown tool: nope"})"));
  const auto bad = call("tools/call", {{"name", "gpio_read"}, {"arguments", {{"pin", "x"}}}});
  EXPECT_EQ(bad["error"]["code"], -32602);
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("arguments.pin"), std::string::npos);
  EXPECT_EQ(call("tools/call", {{"name", "gpio_read"}, {"arguments", 3}})["error"]["message"],
            "params.arguments: expected object, got number");
  EXPECT_EQ(call("tools/call", json::object())["error"]["message"], "params.name: required");
}

TEST_F(McpDialect, Envelope_IsUnwrappedAndTheReplyAndPushesWrapped) {
  const auto reply = request(R"({"session_id":"s1","type":"mcp","payload":{"jsonrpc":"2.0","id":4,"method":"ping"}})");
  EXPECT_EQ(reply, json::parse(R"({"session_id":"s1","type":"mcp","payload":{"jsonrpc":"2.0","id":4,"result":{}}})"));
  request(R"({"session_id":"s1","type":"mcp","payload":{"jsonrpc":"2.0","id":5,"method":"initialize","params":{}}})");
  hub.publish({EventKind::ToolsChanged, "registry", json::object()});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0]["session_id"], "s1");
  EXPECT_EQ(client.pushed[0]["payload"]["method"], "notifications/tools/list_changed");
}

TEST_F(McpDialect, ToolsChanged_ReachesOnlyInitializedClients) {
  hub.publish({EventKind::ToolsChanged, "registry", json::object()});
  EXPECT_TRUE(client.pushed.empty());
  call("initialize", json::object());
  hub.publish({EventKind::ToolsChanged, "registry", json::object()});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0],
            json::parse(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}})"));
}

TEST_F(McpDialect, ResourcesChanged_ReachesOnlyInitializedClients) {
  hub.publish({EventKind::ResourcesChanged, "bridge:uno", nullptr});
  EXPECT_TRUE(client.pushed.empty());
  call("initialize", json::object());
  hub.publish({EventKind::ResourcesChanged, "bridge:uno", nullptr});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0],
            json::parse(R"({"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{}})"));
}

TEST_F(McpDialect, StatusSubscribers_GetTheWholeStatus) {
  EXPECT_EQ(call("resources/subscribe", {{"uri", "mcpu://daemon/status"}})["result"], json::object());
  hub.publish({EventKind::StatusChanged, "daemon", {{"device", "board-1"}}});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0]["params"],
            json::parse(R"({"uri":"mcpu://daemon/status","event":"status_changed","data":{"device":"board-1"}})"));
}

TEST_F(McpDialect, Subscriptions_DeliverOnlyTheSubscribedUris) {
  EXPECT_EQ(call("resources/subscribe", {{"uri", "mcpu://pins/led"}})["result"], json::object());
  hub.publish({EventKind::PinChanged, "led", {{"value", true}}});
  hub.publish({EventKind::PinChanged, "fan", {{"duty", 3}}});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0]["params"],
            json::parse(R"({"uri":"mcpu://pins/led","event":"pin_changed","data":{"value":true}})"));
  call("resources/unsubscribe", {{"uri", "mcpu://pins/led"}});
  hub.publish({EventKind::PinChanged, "led", {{"value", false}}});
  EXPECT_EQ(client.pushed.size(), 1u);
}

TEST_F(McpDialect, McpuSubscribe_SerialSessionsUseTheSameMechanism) {
  const auto reply = call("subscribe", {{"uris", {"mcpu://serial/7"}}});
  EXPECT_EQ(reply["result"]["subscribed"], json::array({"mcpu://serial/7"}));
  const json data = {{"session_id", "7"}, {"port", "/dev/ttyUSB0"}, {"data", "hi"}, {"encoding", "utf8"}, {"bytes", 2}};
  hub.publish({EventKind::SerialData, "7", data});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0]["method"], "notifications/resources/updated");
  EXPECT_EQ(client.pushed[0]["params"]["data"], data);
  EXPECT_EQ(call("subscribe", {{"uris", {"http://x"}}})["error"]["code"], -32602);
  EXPECT_EQ(call("subscribe", {{"uris", {1}}})["error"]["message"], "params.uris[0]: expected string, got number");
}

TEST_F(McpDialect, McpuSubscribe_AResourceThatDoesNotExistIsRefusedAndNothingIsSubscribed) {
  const auto reply = call("subscribe", {{"uris", {"mcpu://pins/led", "mcpu://pins/missing"}}});
  EXPECT_EQ(reply["error"]["code"], -32050);
  EXPECT_EQ(reply["error"]["message"], "params.uris[1]: resource not found: mcpu://pins/missing");
  EXPECT_EQ(call("subscribe", {{"uris", json::array()}})["result"]["subscribed"], json::array());
  EXPECT_TRUE(call("unsubscribe", {{"uris", {"mcpu://pins/missing"}}}).contains("result"))
      << "unsubscribing is always fine";
}

TEST_F(McpDialect, McpuSubscribe_AnotherClientsSerialDataIsNotDelivered) {
  call("initialize", {{"protocolVersion", "2025-11-25"}});  // so that log messages would be sent
  call("subscribe", {{"uris", {"mcpu://serial/7"}}});
  const json data = {{"session_id", "7"}, {"data", "secret"}};
  hub.publish({EventKind::SerialData, "7", data, std::make_shared<ClientIdentity>()});
  hub.publish(
      {EventKind::Log, "serial", {{"level", "warning"}, {"message", "7 gone"}}, std::make_shared<ClientIdentity>()});
  EXPECT_TRUE(client.pushed.empty());
  hub.publish({EventKind::SerialData, "7", data, client.caller.identity});
  hub.publish({EventKind::Log, "serial", {{"level", "warning"}, {"message", "7 gone"}}, client.caller.identity});
  EXPECT_EQ(client.pushed.size(), 2u) << "its own session's data and news are";
}

TEST_F(McpDialect, Subscriptions_ToTheActivityDeclareInterestAndNameTheCaller) {
  auto activity = std::make_shared<ActivityLog>(hub);
  registry.observe_calls(activity);
  call("initialize",
       {{"protocolVersion", "2025-11-25"}, {"clientInfo", {{"name", "claude-code"}, {"version", "2.1"}}}});
  EXPECT_FALSE(hub.wanted(EventKind::ToolCalled));
  EXPECT_EQ(
      call("subscribe", {{"uris", {"mcpu://daemon/activity", "mcpu://samples/light"}}})["result"]["subscribed"].size(),
      2u);
  EXPECT_TRUE(hub.wanted(EventKind::ToolCalled));
  EXPECT_TRUE(hub.wanted(EventKind::PinSampled));
  EXPECT_FALSE(hub.wanted(EventKind::LogLine));
  call("gpio_write", {{"pin", 2}});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0]["params"]["uri"], "mcpu://daemon/activity");
  EXPECT_EQ(client.pushed[0]["params"]["event"], "tool_called");
  EXPECT_EQ(client.pushed[0]["params"]["data"]["tool"], "gpio_write");
  EXPECT_EQ(client.pushed[0]["params"]["data"]["client"], "claude-code 2.1");
  call("unsubscribe", {{"uris", {"mcpu://daemon/activity"}}});
  EXPECT_FALSE(hub.wanted(EventKind::ToolCalled));
  EXPECT_EQ(call("subscribe", {{"uris", {"mcpu://daemon/other"}}})["error"]["code"], -32602);
}

TEST_F(McpDialect, Logging_FiltersByTheClientsLevel) {
  call("initialize", json::object());
  hub.publish({EventKind::Log, "config", {{"level", "info"}, {"message", "reloaded"}}});
  EXPECT_TRUE(client.pushed.empty());  // warning and above by default
  hub.publish({EventKind::Log, "config", {{"level", "error"}, {"message", "reload failed"}}});
  ASSERT_EQ(client.pushed.size(), 1u);
  EXPECT_EQ(client.pushed[0]["params"], json::parse(R"({"level":"error","logger":"config","data":"reload failed"})"));
  EXPECT_EQ(call("logging/setLevel", {{"level", "debug"}})["result"], json::object());
  hub.publish({EventKind::Log, "config", {{"level", "info"}, {"message", "reloaded"}}});
  EXPECT_EQ(client.pushed.size(), 2u);
  EXPECT_EQ(call("logging/setLevel", {{"level", "loud"}})["error"]["code"], -32602);
}

TEST_F(McpDialect, Resources_ReadGivesJsonTextAndUnknownUrisAnError) {
  const auto reply = call("resources/read", {{"uri", "mcpu://pins/led"}});
  EXPECT_EQ(reply["result"]["contents"][0]["text"], R"({"value":true})");
  const auto missing = call("resources/read", {{"uri", "mcpu://pins/x"}});
  EXPECT_EQ(missing["error"]["code"], -32002) << "MCP's Resource not found";
  EXPECT_EQ(missing["error"]["data"]["code"], "RESOURCE_NOT_FOUND");
  EXPECT_EQ(missing["error"]["data"]["uri"], "mcpu://pins/x");
  const auto unknown = call("resources/subscribe", {{"uri", "mcpu://serial/99"}});
  EXPECT_EQ(unknown["error"]["code"], -32002);
  EXPECT_EQ(unknown["error"]["data"]["uri"], "mcpu://serial/99");
  EXPECT_EQ(call("resources/unsubscribe", {{"uri", "mcpu://serial/99"}})["result"], json::object())
      << "unsubscribing from what is gone is harmless";
}

TEST_F(McpDialect, Subscriptions_AreBoundedPerClient) {
  for (std::size_t i = 0; i < ClientSession::kMaxSubscriptions; ++i) {
    const auto reply = call("subscribe", {{"uris", {"mcpu://serial/" + std::to_string(i)}}});
    ASSERT_TRUE(reply.contains("result")) << reply.dump();
  }
  const auto refused = call("subscribe", {{"uris", {"mcpu://serial/over"}}});
  EXPECT_EQ(refused["error"]["code"], -32602);
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("too many subscriptions"), std::string::npos);
  EXPECT_TRUE(call("unsubscribe", {{"uris", {"mcpu://serial/0"}}}).contains("result"));
  EXPECT_TRUE(call("subscribe", {{"uris", {"mcpu://serial/over"}}}).contains("result")) << "room again";
}

TEST(WildcardMatch, MatchesStarsAnywhere) {
  EXPECT_TRUE(wildcard_match("reload", "reload"));
  EXPECT_FALSE(wildcard_match("reload", "reload2"));
  EXPECT_TRUE(wildcard_match("*reboot*", "mcu__reboot"));
  EXPECT_TRUE(wildcard_match("*reboot*", "reboot"));
  EXPECT_FALSE(wildcard_match("*reboot*", "rebut"));
}

}  // namespace
}  // namespace mcpud::dialects
