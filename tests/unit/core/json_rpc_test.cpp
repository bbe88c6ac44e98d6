// SPDX-License-Identifier: MIT
// Unit tests of the JSON-RPC engine: validation, ids, notifications, batches, async and throwing handlers.
#include "mcpud/core/json_rpc.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpud::rpc {
namespace {

using nlohmann::json;

// A handler whose behaviour is chosen per method:
//   echo    replies {"method", "params"} at once
//   fail    replies with a PIN_NOT_FOUND domain error
//   throw   throws before replying
//   reply_then_throw replies, then throws
//   later   stores the reply to be sent by the test
//   twice   replies twice
//   other   -32601
class ScriptedHandler final : public MethodHandler {
 public:
  void handle(Client&, std::string_view method, json&& params, ToolReply&& reply) override {
    calls.push_back({std::string(method), params});
    if (method == "echo") {
      reply(json{{"method", method}, {"params", params}});
    } else if (method == "fail") {
      reply(std::unexpected(Error::domain(DomainError::PinNotFound, "Pin not found: 9")));
    } else if (method == "throw") {
      throw std::runtime_error("boom");
    } else if (method == "reply_then_throw") {
      reply(json("done"));
      throw std::runtime_error("after");
    } else if (method == "later") {
      deferred.push_back(std::move(reply));
    } else if (method == "stoppable") {  // answers later; a cancellation stops it (and it still answers)
      auto shared = std::make_shared<ToolReply>(std::move(reply));
      deferred.push_back([shared](ToolResult r) { (*shared)(std::move(r)); });
      if (auto* cancellation = CallCancellation::current()) {
        cancellation->on_cancel([this, shared] {
          ++stopped;
          (*shared)(json("stopped"));
        });
      }
    } else if (method == "twice") {
      reply(json(1));
      reply(json(2));
    } else {
      reply(std::unexpected(Error::method_not_found("Method not found: " + std::string(method))));
    }
  }

  struct Call {
    std::string method;
    json params;
  };
  std::vector<Call> calls;
  std::vector<ToolReply> deferred;
  int stopped = 0;
};

// A client that keeps nothing it is pushed.
class DetachedClientForTest final : public Client {
 public:
  void push(std::string) override {}
};

// A client whose deferred work waits until the test runs it, as a loop's later turn would.
class DeferringClient final : public Client {
 public:
  void push(std::string) override {}
  void defer(std::function<void()> next) override { later.push_back(std::move(next)); }
  // Runs what was deferred, one turn at a time; the number of turns.
  int run_all() {
    int turns = 0;
    while (!later.empty()) {
      auto next = std::move(later.front());
      later.erase(later.begin());
      next();
      ++turns;
    }
    return turns;
  }
  std::vector<std::function<void()>> later;
};

class JsonRpcEngine : public ::testing::Test {
 protected:
  // Every reply the engine sent for `line`, parsed.
  std::vector<json> send(std::string_view line) {
    std::vector<json> replies;
    engine.handle_line(line, [&](std::string reply) { replies.push_back(json::parse(reply)); });
    return replies;
  }
  // The one reply to `line`; fails the test if there is not exactly one.
  json reply_to(std::string_view line) {
    auto replies = send(line);
    EXPECT_EQ(replies.size(), 1u) << line;
    return replies.empty() ? json() : replies.front();
  }

  ScriptedHandler handler;
  Engine engine{handler};
};

TEST_F(JsonRpcEngine, Cancelled_RequestIsStoppedAndGetsNoResponse) {
  std::vector<std::string> replies;
  DetachedClientForTest client;
  const auto collect = [&](std::string reply) { replies.push_back(std::move(reply)); };
  engine.handle_line(R"({"jsonrpc":"2.0","id":"a","method":"stoppable"})", client, collect);
  engine.handle_line(R"({"jsonrpc":"2.0","id":2,"method":"stoppable"})", client, collect);
  EXPECT_EQ(client.in_flight->size(), 2u);
  engine.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}})", client,
                     collect);
  EXPECT_EQ(handler.stopped, 1);
  // No response; the line's responder learns that none will come ("").
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0], "") << "the cancelled request must not be answered";
  EXPECT_EQ(client.in_flight->size(), 1u);
  handler.deferred[0](json("late"));  // the stopped call's own late answer is dropped too
  EXPECT_EQ(replies.size(), 1u);
  handler.deferred[1](json("done"));
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(json::parse(replies[1])["id"], 2);
  EXPECT_TRUE(client.in_flight->empty());
  engine.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}})", client,
                     collect);
  EXPECT_EQ(handler.stopped, 1) << "answered requests are not cancelled";
}

TEST_F(JsonRpcEngine, Cancelled_ABatchWhoseRequestsAreAllCancelledEndsWithAnEmptyReply) {
  std::vector<std::string> replies;
  DetachedClientForTest client;
  const auto collect = [&](std::string reply) { replies.push_back(std::move(reply)); };
  engine.handle_line(R"([{"jsonrpc":"2.0","id":1,"method":"stoppable"},{"jsonrpc":"2.0","method":"echo"},
                         {"jsonrpc":"2.0","id":2,"method":"stoppable"}])",
                     client, collect);
  engine.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})", client,
                     collect);
  EXPECT_TRUE(replies.empty()) << "one request still waits";
  engine.handle_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}})", client,
                     collect);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0], "");
  // A batch of notifications alone still gets no call at all.
  engine.handle_line(R"([{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"echo"}])", client, collect);
  EXPECT_EQ(replies.size(), 1u);
}

TEST_F(JsonRpcEngine, Cancelled_InsideAnEnvelopeTheEmptyReplyIsNotWrapped) {
  std::vector<std::string> replies;
  DetachedClientForTest client;
  const auto collect = [&](std::string reply) { replies.push_back(std::move(reply)); };
  engine.handle_line(R"({"session_id":"s","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"method":"stoppable"}})",
                     client, collect);
  client.cancel_pending();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0], "");
}

TEST_F(JsonRpcEngine, ALongBatchIsServedInSlicesOnLaterTurnsAndAnsweredOnce) {
  std::string batch = "[";
  for (int i = 0; i < 40; ++i)
    batch += (i ? "," : "") + std::string(R"({"jsonrpc":"2.0","id":)") + std::to_string(i) + R"(,"method":"echo"})";
  batch += "]";
  DeferringClient client;
  std::vector<std::string> replies;
  engine.handle_line(batch, client, [&](std::string reply) { replies.push_back(std::move(reply)); });
  EXPECT_EQ(handler.calls.size(), 16u) << "the first slice at once";
  EXPECT_TRUE(replies.empty());
  EXPECT_EQ(client.run_all(), 2);
  EXPECT_EQ(handler.calls.size(), 40u);
  ASSERT_EQ(replies.size(), 1u);
  const auto answered = json::parse(replies[0]);
  ASSERT_EQ(answered.size(), 40u);
  EXPECT_EQ(answered[39]["id"], 39);
}

TEST_F(JsonRpcEngine, ANulByteAnywhereIsAParseError) {
  const std::string line("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"}\0garbage", 48);
  EXPECT_EQ(reply_to(line)["error"]["code"], -32700);
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, Request_GetsResultWithItsId) {
  const auto reply = reply_to(R"({"jsonrpc":"2.0","id":7,"method":"echo","params":{"a":1}})");
  EXPECT_EQ(reply, json::parse(R"({"jsonrpc":"2.0","id":7,"result":{"method":"echo","params":{"a":1}}})"));
}

TEST_F(JsonRpcEngine, Request_EchoesIdsExactlyAsSent) {
  for (const char* id : {"0", "-5", "9007199254740993", "\"abc\"", "\"7\"", "\"\"", "null"}) {
    const auto reply = reply_to(std::string(R"({"jsonrpc":"2.0","method":"echo","id":)") + id + "}");
    EXPECT_EQ(reply.at("id"), json::parse(id)) << id;
    EXPECT_EQ(reply.at("id").type(), json::parse(id).type()) << id;
    EXPECT_TRUE(reply.contains("result")) << id;
  }
}

TEST_F(JsonRpcEngine, Request_WithoutParamsGetsAnEmptyObject) {
  reply_to(R"({"jsonrpc":"2.0","id":1,"method":"echo"})");
  ASSERT_EQ(handler.calls.size(), 1u);
  EXPECT_EQ(handler.calls[0].params, json::object());
}

TEST_F(JsonRpcEngine, Request_PassesMethodAndParamsToTheHandler) {
  reply_to(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"pin":3,"value":true}})");
  ASSERT_EQ(handler.calls.size(), 1u);
  EXPECT_EQ(handler.calls[0].method, "echo");
  EXPECT_EQ(handler.calls[0].params, json::parse(R"({"pin":3,"value":true})"));
}

struct InvalidCase {
  const char* name;
  std::string line;
  int code;
  json id;  // the id the error must carry
};

TEST_F(JsonRpcEngine, InvalidMessages_AreAnsweredWithTheRightCodeAndIdAsTable) {
  const std::vector<InvalidCase> cases = {
      {"not JSON", "{nope", -32700, nullptr},
      {"truncated JSON", R"({"jsonrpc":"2.0","id":1,"method":"echo")", -32700, nullptr},
      {"a number", "42", -32600, nullptr},
      {"a string", R"("hello")", -32600, nullptr},
      {"null", "null", -32600, nullptr},
      {"empty batch", "[]", -32600, nullptr},
      {"float id", R"({"jsonrpc":"2.0","id":1.5,"method":"echo"})", -32600, nullptr},
      {"boolean id", R"({"jsonrpc":"2.0","id":true,"method":"echo"})", -32600, nullptr},
      {"object id", R"({"jsonrpc":"2.0","id":{"a":1},"method":"echo"})", -32600, nullptr},
      {"array id", R"({"jsonrpc":"2.0","id":[1],"method":"echo"})", -32600, nullptr},
      {"missing jsonrpc", R"({"id":3,"method":"echo"})", -32600, 3},
      {"jsonrpc 1.0", R"({"jsonrpc":"1.0","id":3,"method":"echo"})", -32600, 3},
      {"jsonrpc as number", R"({"jsonrpc":2.0,"id":"s","method":"echo"})", -32600, "s"},
      {"missing method", R"({"jsonrpc":"2.0","id":4})", -32600, 4},
      {"method not a string", R"({"jsonrpc":"2.0","id":4,"method":5})", -32600, 4},
      {"params an array", R"({"jsonrpc":"2.0","id":5,"method":"echo","params":[1,2]})", -32602, 5},
      {"params a string", R"({"jsonrpc":"2.0","id":5,"method":"echo","params":"x"})", -32602, 5},
      {"params null", R"({"jsonrpc":"2.0","id":5,"method":"echo","params":null})", -32602, 5},
      {"unknown method", R"({"jsonrpc":"2.0","id":6,"method":"nope"})", -32601, 6},
  };
  for (const auto& c : cases) {
    const auto replies = send(c.line);
    ASSERT_EQ(replies.size(), 1u) << c.name;
    const auto& reply = replies[0];
    EXPECT_EQ(reply.at("jsonrpc"), "2.0") << c.name;
    EXPECT_EQ(reply.at("id"), c.id) << c.name;
    EXPECT_EQ(reply.at("error").at("code"), c.code) << c.name;
    EXPECT_TRUE(reply.at("error").at("message").is_string()) << c.name;
    EXPECT_FALSE(reply.contains("result")) << c.name;
  }
  // None of the invalid requests (the unknown method aside) reached the handler.
  ASSERT_EQ(handler.calls.size(), 1u);
  EXPECT_EQ(handler.calls[0].method, "nope");
}

TEST_F(JsonRpcEngine, RepeatedMembers_AreAnInvalidRequestNamingTheMember) {
  const auto message = [](const json& reply) { return reply.at("error").at("message").get<std::string>(); };
  auto reply = reply_to(R"({"jsonrpc":"2.0","id":1,"method":"echo","method":"throw"})");
  EXPECT_EQ(reply.at("error").at("code"), -32600);
  EXPECT_EQ(message(reply), R"(Invalid request: member "method" appears more than once)");
  EXPECT_EQ(reply.at("id"), 1);
  reply = reply_to(R"({"jsonrpc":"2.0","id":1,"method":"echo","id":2})");
  EXPECT_EQ(message(reply), R"(Invalid request: member "id" appears more than once)");
  EXPECT_TRUE(reply.at("id").is_null()) << "which id would be a guess";
  reply = reply_to(R"({"params":{"a":1},"jsonrpc":"2.0","id":"p","method":"echo","params":{"a":2}})");
  EXPECT_EQ(message(reply), R"(Invalid request: member "params" appears more than once)");
  EXPECT_EQ(reply.at("id"), "p");
  reply = reply_to(R"({"jsonrpc":"1.0","id":3,"method":"echo","jsonrpc":"2.0"})");
  EXPECT_EQ(message(reply), R"(Invalid request: member "jsonrpc" appears more than once)");
  reply = reply_to(R"({"jsonrpc":"2.0","id":9,"method":"echo","\u006dethod":"throw"})");
  EXPECT_EQ(message(reply), R"(Invalid request: member "method" appears more than once)") << "escaped keys too";
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, RepeatedMembers_InABatchRefuseOnlyTheirElement) {
  const auto replies = reply_to(R"([{"jsonrpc":"2.0","id":1,"method":"echo"},)"
                                R"({"jsonrpc":"2.0","id":2,"method":"echo","params":{},"params":{"x":1}},)"
                                R"({"jsonrpc":"2.0","id":3,"method":"echo","params":{"id":1,"id":2}}])");
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_TRUE(replies[0].contains("result"));
  EXPECT_EQ(replies[1].at("id"), 2);
  EXPECT_EQ(replies[1].at("error").at("message"), R"(Invalid request: member "params" appears more than once)");
  EXPECT_EQ(replies[2].at("id"), 3);
  EXPECT_EQ(replies[2].at("error").at("code"), -32602);
  EXPECT_EQ(replies[2].at("error").at("message"), R"(Invalid params: key "id" appears more than once in one object)")
      << "which of two values was meant is a guess: refused wherever a request holds it";
  EXPECT_EQ(handler.calls.size(), 1u);
}

TEST_F(JsonRpcEngine, RepeatedKeys_ANotificationIsStillNeverAnswered) {
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","method":"echo","params":{"a":1,"a":2}})").empty());
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","method":"echo","method":"x"})").empty());
  EXPECT_TRUE(send(R"([{"jsonrpc":"2.0","method":"echo","params":{"a":1,"a":2}}])").empty());
  EXPECT_TRUE(handler.calls.empty()) << "nor carried out";
}

TEST_F(JsonRpcEngine, RepeatedKeys_AnEnvelopeNamingAMemberTwiceIsRefusedUnwrapped) {
  const auto reply = reply_to(R"({"session_id":"s","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"method":"echo"},)"
                              R"("payload":{"jsonrpc":"2.0","id":2,"method":"fail"}})");
  EXPECT_TRUE(reply.at("id").is_null());
  EXPECT_EQ(reply.at("error").at("message"), R"(Invalid request: envelope member "payload" appears more than once)");
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, RepeatedKeys_InsideParamsAreInvalidParamsWhateverPathReadsTheLine) {
  // The plain line, one whose params need the parser (a fraction), one inside an
  // envelope, and a key repeated deep down.
  for (const std::string line :
       {R"({"jsonrpc":"2.0","id":4,"method":"echo","params":{"name":"a","name":"b"}})",
        R"({"jsonrpc":"2.0","id":4,"method":"echo","params":{"duty":0.5,"name":"a","name":"b"}})",
        R"({"jsonrpc":"2.0","id":4,"method":"echo","params":{"arguments":[{"x":{"y":1,"name":0,"name":1}}]}})"}) {
    const auto reply = reply_to(line);
    EXPECT_EQ(reply.at("id"), 4) << line;
    EXPECT_EQ(reply.at("error").at("code"), -32602) << line;
    EXPECT_EQ(reply.at("error").at("message"), R"(Invalid params: key "name" appears more than once in one object)")
        << line;
  }
  const auto wrapped = reply_to(
      R"({"session_id":"s","type":"mcp","payload":{"jsonrpc":"2.0","id":5,"method":"echo","params":{"a":1,"a":1}}})");
  EXPECT_EQ(wrapped.at("payload").at("error").at("code"), -32602);
  EXPECT_EQ(
      reply_to(R"({"jsonrpc":"2.0","id":6,"method":"echo","params":{"x":{"":1,"":2}}})").at("error").at("message"),
      R"(Invalid params: key "" appears more than once in one object)");
  const auto in_id = reply_to(R"({"jsonrpc":"2.0","id":{"a":1,"a":2},"method":"echo"})");
  EXPECT_TRUE(in_id.at("id").is_null());
  EXPECT_EQ(in_id.at("error").at("message"),
            R"(Invalid request: key "a" appears more than once in one object of "id")");
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, RepeatedMembers_InTheEnvelopesPayloadAreRefusedInsideTheEnvelope) {
  const auto reply =
      reply_to(R"({"session_id":"s1","type":"mcp","payload":{"jsonrpc":"2.0","id":7,"method":"echo","method":"x"}})");
  EXPECT_EQ(reply.at("session_id"), "s1");
  EXPECT_EQ(reply.at("payload").at("id"), 7);
  EXPECT_EQ(reply.at("payload").at("error").at("code"), -32600);
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, Notification_IsServedButNeverAnswered) {
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","method":"echo","params":{"x":1}})").empty());
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","method":"fail"})").empty());
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","method":"throw"})").empty());
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","method":"nope"})").empty());
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","method":"echo","params":[1]})").empty());
  EXPECT_EQ(handler.calls.size(), 4u);
}

TEST_F(JsonRpcEngine, NullIdIsARequestNotANotification) {
  const auto reply = reply_to(R"({"jsonrpc":"2.0","id":null,"method":"echo"})");
  EXPECT_TRUE(reply.at("id").is_null());
  EXPECT_TRUE(reply.contains("result"));
}

TEST_F(JsonRpcEngine, ResponsesFromThePeerAreIgnored) {
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","id":1,"result":{"ok":true}})").empty());
  EXPECT_TRUE(send(R"({"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}})").empty());
  EXPECT_TRUE(send(R"([{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":2}])").empty());
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, DomainError_CarriesItsNameInDataCode) {
  const auto reply = reply_to(R"({"jsonrpc":"2.0","id":"q","method":"fail"})");
  EXPECT_EQ(reply, json::parse(R"({"jsonrpc":"2.0","id":"q",
      "error":{"code":-32001,"message":"Pin not found: 9","data":{"code":"PIN_NOT_FOUND"}}})"));
}

TEST_F(JsonRpcEngine, ProtocolError_HasNoData) {
  const auto reply = reply_to(R"({"jsonrpc":"2.0","id":1,"method":"nope"})");
  EXPECT_FALSE(reply.at("error").contains("data"));
}

TEST_F(JsonRpcEngine, HandlerThatThrows_GivesInternalError) {
  const auto reply = reply_to(R"({"jsonrpc":"2.0","id":8,"method":"throw"})");
  EXPECT_EQ(reply.at("id"), 8);
  EXPECT_EQ(reply.at("error").at("code"), -32603);
  EXPECT_NE(reply.at("error").at("message").get<std::string>().find("boom"), std::string::npos);
}

TEST_F(JsonRpcEngine, HandlerThatThrowsAfterReplying_SendsOnlyItsReply) {
  const auto replies = send(R"({"jsonrpc":"2.0","id":8,"method":"reply_then_throw"})");
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].at("result"), "done");
}

TEST_F(JsonRpcEngine, HandlerThatRepliesTwice_SendsTheFirstReplyOnly) {
  const auto replies = send(R"({"jsonrpc":"2.0","id":8,"method":"twice"})");
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].at("result"), 1);
}

TEST_F(JsonRpcEngine, AsyncReply_IsSentWhenTheHandlerRepliesLater) {
  std::vector<std::string> out;
  engine.handle_line(R"({"jsonrpc":"2.0","id":"a","method":"later"})", [&](std::string r) { out.push_back(r); });
  EXPECT_TRUE(out.empty());
  ASSERT_EQ(handler.deferred.size(), 1u);
  handler.deferred[0](json{{"late", true}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(json::parse(out[0]), json::parse(R"({"jsonrpc":"2.0","id":"a","result":{"late":true}})"));
}

TEST_F(JsonRpcEngine, Batch_AnswersEachRequestInOneArray) {
  const auto reply = reply_to(R"([
      {"jsonrpc":"2.0","id":1,"method":"echo"},
      {"jsonrpc":"2.0","method":"echo"},
      {"jsonrpc":"2.0","id":2,"method":"fail"},
      42,
      {"jsonrpc":"2.0","id":3,"method":"throw"}])");
  ASSERT_TRUE(reply.is_array());
  ASSERT_EQ(reply.size(), 4u);
  EXPECT_EQ(reply[0].at("id"), 1);
  EXPECT_TRUE(reply[0].contains("result"));
  EXPECT_EQ(reply[1].at("id"), 2);
  EXPECT_EQ(reply[1].at("error").at("code"), -32001);
  EXPECT_TRUE(reply[2].at("id").is_null());
  EXPECT_EQ(reply[2].at("error").at("code"), -32600);
  EXPECT_EQ(reply[3].at("id"), 3);
  EXPECT_EQ(reply[3].at("error").at("code"), -32603);
}

TEST_F(JsonRpcEngine, Batch_OfOnlyNotificationsGetsNoReply) {
  EXPECT_TRUE(send(R"([{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"nope"}])").empty());
  EXPECT_EQ(handler.calls.size(), 2u);
}

TEST_F(JsonRpcEngine, Batch_OfInvalidElementsGetsOneErrorEach) {
  const auto reply = reply_to("[1,2,3]");
  ASSERT_EQ(reply.size(), 3u);
  for (const auto& element : reply) {
    EXPECT_EQ(element.at("error").at("code"), -32600);
    EXPECT_TRUE(element.at("id").is_null());
  }
}

TEST_F(JsonRpcEngine, Batch_NestedBatchIsAnInvalidElement) {
  const auto reply = reply_to(R"([[{"jsonrpc":"2.0","id":1,"method":"echo"}]])");
  ASSERT_EQ(reply.size(), 1u);
  EXPECT_EQ(reply[0].at("error").at("code"), -32600);
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, Batch_WaitsForAsyncRepliesAfterHandleLineReturns) {
  std::vector<std::string> out;
  engine.handle_line(R"([{"jsonrpc":"2.0","id":1,"method":"later"},
                         {"jsonrpc":"2.0","id":2,"method":"echo"},
                         {"jsonrpc":"2.0","method":"later"},
                         {"jsonrpc":"2.0","id":3,"method":"later"}])",
                     [&](std::string r) { out.push_back(r); });
  ASSERT_EQ(handler.deferred.size(), 3u);
  EXPECT_TRUE(out.empty());
  // Replies arrive out of order, after handle_line has returned.
  handler.deferred[2](json("third"));
  handler.deferred[1](json("notification"));
  EXPECT_TRUE(out.empty());
  handler.deferred[0](json("first"));
  ASSERT_EQ(out.size(), 1u);
  const auto reply = json::parse(out[0]);
  ASSERT_EQ(reply.size(), 3u);
  std::map<int, json> by_id;
  for (const auto& element : reply) by_id[element.at("id").get<int>()] = element.at("result");
  EXPECT_EQ(by_id.at(1), "first");
  EXPECT_EQ(by_id.at(2).at("method"), "echo");
  EXPECT_EQ(by_id.at(3), "third");
}

TEST_F(JsonRpcEngine, Batch_OverTheLimitIsRefusedWhole) {
  Engine small(handler, EngineLimits{.max_depth = 64, .max_batch = 2});
  std::vector<json> replies;
  const auto respond = [&](std::string r) { replies.push_back(json::parse(r)); };
  small.handle_line(R"([{"jsonrpc":"2.0","id":1,"method":"echo"},{"jsonrpc":"2.0","id":2,"method":"echo"},
                        {"jsonrpc":"2.0","id":3,"method":"echo"}])",
                    respond);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_TRUE(replies[0].is_object());
  EXPECT_EQ(replies[0].at("error").at("code"), -32600);
  EXPECT_TRUE(handler.calls.empty());
  replies.clear();
  small.handle_line(R"([{"jsonrpc":"2.0","id":1,"method":"echo"},{"jsonrpc":"2.0","id":2,"method":"echo"}])", respond);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].size(), 2u);
}

TEST_F(JsonRpcEngine, Batch_OfTheDefaultMaximumIsServed) {
  std::string line = "[";
  for (int i = 0; i < 1000; ++i)
    line += (i ? "," : "") + std::string(R"({"jsonrpc":"2.0","id":)") + std::to_string(i) + R"(,"method":"echo"})";
  line += "]";
  EXPECT_EQ(reply_to(line).size(), 1000u);
  EXPECT_EQ(reply_to("[" + line.substr(1, line.size() - 2) + R"(,{"jsonrpc":"2.0","id":1000,"method":"echo"}])")
                .at("error")
                .at("code"),
            -32600);
}

TEST_F(JsonRpcEngine, DeepNesting_IsRefusedBeforeParsing) {
  const std::string deep =
      R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":)" + std::string(70, '[') + std::string(70, ']') + "}}";
  const auto reply = reply_to(deep);
  EXPECT_TRUE(reply.at("id").is_null());
  EXPECT_EQ(reply.at("error").at("code"), -32600);
  EXPECT_TRUE(handler.calls.empty());
}

TEST_F(JsonRpcEngine, DeepNesting_AtTheLimitIsAccepted) {
  // The request object is level 1, params level 2, then 62 arrays: 64 in all.
  const std::string line =
      R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":)" + std::string(62, '[') + std::string(62, ']') + "}}";
  ASSERT_EQ(nesting_depth(line), 64u);
  EXPECT_TRUE(reply_to(line).contains("result"));
  const std::string over =
      R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":)" + std::string(63, '[') + std::string(63, ']') + "}}";
  EXPECT_EQ(reply_to(over).at("error").at("code"), -32600);
}

TEST_F(JsonRpcEngine, DeepNesting_LimitIsConfigurable) {
  Engine shallow(handler, EngineLimits{.max_depth = 2, .max_batch = 1000});
  std::vector<json> replies;
  const auto respond = [&](std::string r) { replies.push_back(json::parse(r)); };
  shallow.handle_line(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}})", respond);
  shallow.handle_line(R"({"jsonrpc":"2.0","id":2,"method":"echo","params":{"a":[1]}})", respond);
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_TRUE(replies[0].contains("result"));
  EXPECT_EQ(replies[1].at("error").at("code"), -32600);
}

TEST(JsonRpcNestingDepth, CountsBracketsOutsideStringsAsTable) {
  const std::vector<std::pair<std::string, std::size_t>> cases = {
      {"", 0},
      {"1", 0},
      {"{}", 1},
      {"[[]]", 2},
      {"[{},{},[]]", 2},
      {R"({"a":{"b":[1]}})", 3},
      {R"("[[[[")", 0},
      {R"({"a":"]]]{{{"})", 1},
      {R"(["\"[[", "x"])", 1},
      {R"(["\\", [[]]])", 3},
      {"]]]]", 0},
      {"[]]][", 1},
  };
  for (const auto& [text, depth] : cases) EXPECT_EQ(nesting_depth(text), depth) << text;
}

TEST(JsonRpcEncoding, ErrorResponseShape) {
  const auto text = error_response(5, Error::domain(DomainError::WrongPinType, "Wrong pin type"));
  EXPECT_EQ(json::parse(text), json::parse(R"({"jsonrpc":"2.0","id":5,
      "error":{"code":-32002,"message":"Wrong pin type","data":{"code":"WRONG_PIN_TYPE"}}})"));
  const auto protocol = json::parse(error_response(nullptr, Error::invalid_params("params.pin: missing")));
  EXPECT_EQ(protocol, json::parse(R"({"jsonrpc":"2.0","id":null,
      "error":{"code":-32602,"message":"params.pin: missing"}})"));
}

TEST(JsonRpcEncoding, ARetryHintIsSentBesideTheErrorsName) {
  auto away = Error::domain(DomainError::DeviceDisconnected, "uno: device unplugged");
  away.retry_after_ms = 850;
  EXPECT_EQ(json::parse(error_response(1, away))["error"]["data"],
            json::parse(R"({"code":"DEVICE_DISCONNECTED","retry_after_ms":850})"));
}

TEST(JsonRpcEncoding, ResponseOfAnErrorResultIsAnErrorResponse) {
  const ToolResult failed = std::unexpected(Error::internal("bad"));
  EXPECT_EQ(response("x", failed), error_response("x", Error::internal("bad")));
  EXPECT_EQ(json::parse(response("x", json::array({1, 2}))),
            json::parse(R"({"jsonrpc":"2.0","id":"x","result":[1,2]})"));
}

TEST(JsonRpcEncoding, LineTooLongNamesTheCap) {
  const auto reply = json::parse(Engine::line_too_long(65536));
  EXPECT_EQ(reply, json::parse(R"({"jsonrpc":"2.0","id":null,
      "error":{"code":-32600,"message":"Invalid request: line longer than 65536 bytes"}})"));
}

TEST(JsonRpcEncoding, DumpReplacesInvalidUtf8InsteadOfThrowing) {
  const json value = {{"text", std::string("ok\xff\xfe")}};
  std::string out;
  EXPECT_NO_THROW(out = dump(value));
  EXPECT_TRUE(json::accept(out));
  EXPECT_EQ(out.find('\xff'), std::string::npos);
}

// dump() writes most values itself: byte for byte what nlohmann's serializer
// writes, which is what every reply and notification was before.
TEST(JsonRpcEncoding, DumpWritesExactlyWhatTheSerializerWrites) {
  std::string controls;
  for (char c = 0; c < 0x20; ++c) controls += c;
  const json values[] = {
      nullptr,
      true,
      false,
      0,
      -1,
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::int64_t>::max(),
      std::numeric_limits<std::uint64_t>::max(),
      "",
      "plain text",
      "quote \" backslash \\ slash / del \x7f",
      controls,
      json::object(),
      json::array(),
      json::parse(R"({"pin":2,"name":"led","value":true})"),
      json::parse(R"({"b":[1,-2,{"c":null,"a":[]}],"a":{},"":"empty key","k\"ey":"\n"})"),
      // Left to the serializer: floats, UTF-8, invalid UTF-8, binary values.
      1.5,
      3.0,
      1e300,
      json::parse(R"({"volts":1.65,"list":[0.1,2]})"),
      "caf\u00e9 \u2603",
      json::parse(R"({"\u00e9":1})"),
      std::string("bad \xff byte"),
      json::binary({1, 2, 3}, 7),
  };
  for (const auto& value : values) {
    EXPECT_EQ(dump(value), value.dump(-1, ' ', false, json::error_handler_t::replace)) << value.type_name();
  }
}

TEST(JsonRpcEncoding, SuccessResponseWithInvalidUtf8IsStillValidJson) {
  const std::string text = response(1, json(std::string("a\xc3")));
  EXPECT_TRUE(json::accept(text));
}

// A result larger than the client's reply budget becomes REPLY_TOO_LARGE, which
// says the call ran; in a batch the budget is shared and what fits is answered.
TEST_F(JsonRpcEngine, ReplyBudget_SingleResultOverItIsAnErrorThatSaysTheCallRan) {
  DetachedClientForTest client;
  client.reply_bytes_limit = 100;
  std::vector<std::string> replies;
  const std::string big(200, 'x');
  engine.handle_line(R"({"jsonrpc":"2.0","id":5,"method":"echo","params":{"text":")" + big + R"("}})", client,
                     [&](std::string reply) { replies.push_back(std::move(reply)); });
  ASSERT_EQ(replies.size(), 1u);
  const json reply = json::parse(replies[0]);
  EXPECT_EQ(reply["id"], 5);
  EXPECT_EQ(reply["error"]["code"], -32042);
  EXPECT_EQ(reply["error"]["data"]["code"], "REPLY_TOO_LARGE");
  EXPECT_NE(reply["error"]["message"].get<std::string>().find("the call itself was carried out"), std::string::npos);
  EXPECT_EQ(handler.calls.size(), 1u);
}

TEST_F(JsonRpcEngine, ReplyBudget_BatchSharesItAndAnswersEveryRequest) {
  DetachedClientForTest client;
  client.reply_bytes_limit = 150;  // two echo replies (68 bytes each) fit, not three
  std::string batch = "[";
  for (int i = 0; i < 5; ++i)
    batch += std::string(i ? "," : "") + R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
             R"(,"method":"echo","params":{"n":)" + std::to_string(i) + "}}";
  batch += "]";
  std::vector<std::string> replies;
  engine.handle_line(batch, client, [&](std::string reply) { replies.push_back(std::move(reply)); });
  ASSERT_EQ(replies.size(), 1u);
  const json answers = json::parse(replies[0]);
  ASSERT_EQ(answers.size(), 5u);
  int results = 0;
  for (const auto& answer : answers) {
    if (answer.contains("result")) {
      ++results;
    } else {
      EXPECT_EQ(answer["error"]["data"]["code"], "REPLY_TOO_LARGE") << answer.dump();
    }
  }
  EXPECT_EQ(results, 2);
}

}  // namespace
}  // namespace mcpud::rpc
