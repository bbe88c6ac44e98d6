// SPDX-License-Identifier: MIT
// Unit tests of Streamable HTTP's session-free path (MCP 2026-07-28), called as
// the function it is: no sockets, an engine over a scripted method handler.
#include "modern_http.hpp"

#include <gtest/gtest.h>

namespace mcpud::http {
namespace {

using nlohmann::json;

// Answers tools/call and tools/list; every other method is unknown (-32601).
class ScriptedMethods final : public rpc::MethodHandler {
 public:
  void handle(rpc::Client& client, std::string_view method, json&& params, ToolReply&& reply) override {
    seen_peer = client.caller.peer;
    ++calls;
    if (method == "tools/call") return reply(json{{"resultType", "complete"}, {"called", params["name"]}});
    if (method == "tools/list") return reply(json{{"resultType", "complete"}, {"tools", json::array()}});
    // Notifies now and answers when told: a listen that runs until it ends.
    if (method == "subscriptions/listen" || method == "tools/list_notifying") {
      client.notify("notifications/subscriptions/acknowledged", json::object());
      pending = std::make_shared<ToolReply>(std::move(reply));
      return;
    }
    reply(std::unexpected(Error::method_not_found("Method not found: " + std::string(method))));
  }
  std::string seen_peer;
  int calls = 0;
  std::shared_ptr<ToolReply> pending;
};

// The connection as a listen sees it: where its events go.
class CollectedStream final : public EventStream {
 public:
  void send_event(std::string_view message) override { events.emplace_back(message); }
  void close() override {}
  std::vector<std::string> events;
};

class ModernHttp : public ::testing::Test {
 protected:
  static json body(std::string method, json params = json::object(), json id = 7) {
    params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                       {"io.modelcontextprotocol/clientCapabilities", json::object()}};
    return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
  }

  // Serves `text` with the given headers; the response, which must come at once.
  ModernResponse serve(const std::string& text, std::optional<std::string_view> method,
                       std::optional<std::string_view> name = std::nullopt, std::string_view version = "2026-07-28",
                       std::string_view accept = "application/json, text/event-stream") {
    std::optional<ModernResponse> out;
    serve_modern({text, version, method, name, accept}, context, [&](ModernResponse r) { out = std::move(r); });
    EXPECT_TRUE(out.has_value());
    return out.value_or(ModernResponse{});
  }
  ModernResponse serve(const json& message, std::optional<std::string_view> method,
                       std::optional<std::string_view> name = std::nullopt, std::string_view version = "2026-07-28") {
    return serve(message.dump(), method, name, version);
  }

  ScriptedMethods methods;
  rpc::Engine engine{methods};
  ModernContext context{engine, {"2026-07-28", "2025-11-25"}, {"2026-07-28"}, "192.0.2.1", 1 << 20};
};

json error_of(const ModernResponse& response) { return json::parse(response.body)["error"]; }

TEST_F(ModernHttp, ServesARequestWhoseHeadersMatchItsBody) {
  const auto response = serve(body("tools/call", {{"name", "gpio_read"}}), "tools/call", "gpio_read");
  EXPECT_EQ(response.status, 200u);
  EXPECT_FALSE(response.sse);
  EXPECT_EQ(json::parse(response.body)["result"]["called"], "gpio_read");
  EXPECT_EQ(methods.seen_peer, "192.0.2.1");
}

TEST_F(ModernHttp, AClientThatTakesOnlyEventStreamsGetsOne) {
  std::optional<ModernResponse> out;
  serve_modern({body("tools/list").dump(), "2026-07-28", "tools/list", std::nullopt, "text/event-stream"}, context,
               [&](ModernResponse r) { out = std::move(r); });
  ASSERT_TRUE(out);
  EXPECT_TRUE(out->sse);
}

TEST_F(ModernHttp, MethodAndNameHeadersMustMatchTheBody) {
  auto response = serve(body("tools/list"), "tools/call");
  EXPECT_EQ(response.status, 400u);
  EXPECT_EQ(error_of(response)["code"], -32020);
  EXPECT_EQ(json::parse(response.body)["id"], 7);
  EXPECT_EQ(error_of(serve(body("tools/list"), std::nullopt))["code"], -32020);
  EXPECT_EQ(error_of(serve(body("tools/call", {{"name", "gpio_read"}}), "tools/call", "gpio_write"))["code"], -32020);
  EXPECT_EQ(error_of(serve(body("tools/call", {{"name", "gpio_read"}}), "tools/call"))["code"], -32020);
  EXPECT_EQ(
      error_of(serve(body("resources/read", {{"uri", "mcpu://pins/a"}}), "resources/read", "mcpu://pins/b"))["code"],
      -32020);
  EXPECT_EQ(methods.calls, 0);
}

TEST_F(ModernHttp, ANameOutsideHeaderSafeCharactersComesAsBase64) {
  // "température" in UTF-8, Base64.
  const auto response =
      serve(body("tools/call", {{"name", "temp\xc3\xa9rature"}}), "tools/call", "=?base64?dGVtcMOpcmF0dXJl?=");
  EXPECT_EQ(response.status, 200u) << response.body;
  EXPECT_EQ(error_of(serve(body("tools/call", {{"name", "x"}}), "tools/call", "=?base64?!!?="))["code"], -32020);
  EXPECT_EQ(decode_header_value("plain"), "plain");
  EXPECT_EQ(decode_header_value("=?base64?aGk=?="), "hi");
}

TEST_F(ModernHttp, TheVersionMustBeModernAndAgreeWithTheBody) {
  auto response = serve(body("tools/list"), "tools/list", std::nullopt, "1900-01-01");
  EXPECT_EQ(response.status, 400u);
  EXPECT_EQ(error_of(response)["code"], -32022);
  EXPECT_EQ(error_of(response)["data"]["requested"], "1900-01-01");
  EXPECT_EQ(error_of(response)["data"]["supported"], json::parse(R"(["2026-07-28","2025-11-25"])"));
  json other = body("tools/list");
  other["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2027-01-01";
  EXPECT_EQ(error_of(serve(other, "tools/list"))["code"], -32020);
}

TEST_F(ModernHttp, MissingMetaKeysAreInvalidParams) {
  json message = body("tools/list");
  message["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
  auto response = serve(message, "tools/list");
  EXPECT_EQ(response.status, 400u);
  EXPECT_EQ(error_of(response)["code"], -32602);
  message["params"].erase("_meta");
  EXPECT_EQ(error_of(serve(message, "tools/list"))["code"], -32602);
}

TEST_F(ModernHttp, AnUnknownOrRemovedMethodIs404WithMethodNotFound) {
  for (const char* method : {"initialize", "ping", "no/such"}) {
    const auto response = serve(body(method), method);
    EXPECT_EQ(response.status, 404u) << method;
    EXPECT_EQ(error_of(response)["code"], -32601);
    EXPECT_EQ(json::parse(response.body)["id"], 7);
  }
}

TEST_F(ModernHttp, AListensNotificationsGoToTheStreamAndItsEndAnswersOnce) {
  const auto stream = std::make_shared<CollectedStream>();
  context.stream = stream;
  std::vector<ModernResponse> responses;
  const auto client = serve_modern({body("subscriptions/listen").dump(), "2026-07-28", "subscriptions/listen",
                                    std::nullopt, "application/json, text/event-stream"},
                                   context, [&](ModernResponse r) { responses.push_back(std::move(r)); });
  ASSERT_TRUE(client) << "a listen is a call the connection can cancel";
  ASSERT_EQ(stream->events.size(), 1u);
  EXPECT_EQ(json::parse(stream->events[0])["method"], "notifications/subscriptions/acknowledged");
  EXPECT_TRUE(responses.empty()) << "a listen is answered when it ends, not when it opens";
  (*methods.pending)(json{{"resultType", "complete"}});
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(json::parse(responses[0].body)["result"]["resultType"], "complete");
}

TEST_F(ModernHttp, NoOtherRequestPushesToTheStream) {
  const auto stream = std::make_shared<CollectedStream>();
  context.stream = stream;
  std::vector<ModernResponse> responses;
  serve_modern({body("tools/list_notifying").dump(), "2026-07-28", "tools/list_notifying", std::nullopt,
                "application/json, text/event-stream"},
               context, [&](ModernResponse r) { responses.push_back(std::move(r)); });
  EXPECT_TRUE(stream->events.empty()) << "mcpud sends no request-scoped notifications";
  (*methods.pending)(json{{"resultType", "complete"}});
  EXPECT_EQ(responses.size(), 1u);
}

TEST_F(ModernHttp, OneRequestPerPostAndEveryRefusalIsAJsonRpcError) {
  auto response = serve(json::array({body("tools/list")}), "tools/list");
  EXPECT_EQ(response.status, 400u);
  EXPECT_EQ(error_of(response)["code"], -32600);
  response = serve(std::string("{not json"), "tools/list");
  EXPECT_EQ(response.status, 400u);
  EXPECT_EQ(error_of(response)["code"], -32700);
  response = serve(body("tools/list").dump(), "tools/list", std::nullopt, "2026-07-28", "text/html");
  EXPECT_EQ(response.status, 406u);
  EXPECT_EQ(json::parse(response.body)["id"], 7);
  json notification = body("notifications/cancelled");
  notification.erase("id");
  response = serve(notification, "notifications/cancelled");
  EXPECT_EQ(response.status, 202u);
  EXPECT_TRUE(response.body.empty());
}

TEST(ModernHttpPath, IsTakenForAnyVersionThatIsNotLegacy) {
  const std::vector<std::string> legacy = {"2025-06-18", "2025-11-25"};
  EXPECT_TRUE(selects_modern_path("2026-07-28", legacy));
  EXPECT_TRUE(selects_modern_path("1900-01-01", legacy));
  EXPECT_FALSE(selects_modern_path("2025-11-25", legacy));
  EXPECT_FALSE(selects_modern_path("", legacy));
}

}  // namespace
}  // namespace mcpud::http
