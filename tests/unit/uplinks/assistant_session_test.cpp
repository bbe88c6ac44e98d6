// SPDX-License-Identifier: MIT
// Unit tests of the voice-assistant session's state machine over a scripted
// MessageLink (no sockets): hello, the hello deadline, MCP through the engine,
// goodbye both ways, and pushes held back until the session is established.
#include "assistant_session.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "mcpud/core/dispatcher.hpp"
#include "mcpud/dialects/mcp_dialect.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;

// The test plays the server through this link.
class ScriptedLink final : public MessageLink {
 public:
  void open(Handlers handlers) override { handlers_ = std::move(handlers); }
  bool send(std::string text) override {
    if (closed_) return false;
    sent.push_back(json::parse(text));
    return true;
  }
  void close() override {
    if (closed_) return;
    closed_ = true;
    if (auto on_closed = std::move(handlers_.on_closed)) on_closed("closed");
  }
  const std::string& peer() const override { return peer_; }

  void connect() { handlers_.on_open(); }
  void from_server(const json& message) { handlers_.on_message(message.dump()); }
  bool closed() const { return closed_; }

  std::vector<json> sent;

 private:
  Handlers handlers_;
  std::string peer_ = "ws://test/";
  bool closed_ = false;
};

class AssistantSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dialects::install_mcp_dialect(
        dispatcher_, hub_,
        {[] { return std::string("board"); }, "1.0", [] { return std::size_t{8000}; }, [] { return json::array(); },
         [](std::string_view, ToolReply reply) { reply(json::object()); }});
  }

  std::shared_ptr<AssistantSession> start(std::chrono::milliseconds hello_timeout = std::chrono::seconds(10)) {
    const SessionOptions options{"websocket", 1, json::object(), hello_timeout, true};
    auto session = std::make_shared<AssistantSession>(
        io_, engine_, hub_, options,
        AssistantSession::Observer{[this](const std::string& id) { established_ = id; },
                                   [this](const json& capabilities) { capabilities_ = capabilities; },
                                   [this](const std::string& why, bool) { ended_ = why; }});
    session->start(link_);
    link_->connect();
    return session;
  }
  void server_hello(const std::string& id = "s1") {
    link_->from_server({{"type", "hello"}, {"transport", "websocket"}, {"session_id", id}});
  }
  void server_mcp(const json& payload, const std::string& id = "s1") {
    link_->from_server({{"session_id", id}, {"type", "mcp"}, {"payload", payload}});
  }

  boost::asio::io_context io_;
  ToolRegistry registry_;
  rpc::Dispatcher dispatcher_{registry_};
  rpc::Engine engine_{dispatcher_};
  EventHub hub_;
  std::shared_ptr<ScriptedLink> link_ = std::make_shared<ScriptedLink>();
  std::string established_;
  json capabilities_;
  std::optional<std::string> ended_;
};

TEST_F(AssistantSessionTest, SaysHelloAndServesMcpOnceTheServerAnswers) {
  auto session = start();
  ASSERT_EQ(link_->sent.size(), 1u);
  EXPECT_EQ(link_->sent[0]["type"], "hello");
  server_mcp({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}});
  EXPECT_EQ(link_->sent.size(), 1u) << "nothing is served before the server's hello";

  server_hello("s1");
  EXPECT_EQ(established_, "s1");
  server_mcp({{"jsonrpc", "2.0"},
              {"id", 2},
              {"method", "initialize"},
              {"params", {{"capabilities", {{"vision", {{"url", "http://v"}}}}}}}});
  ASSERT_EQ(link_->sent.size(), 2u);
  EXPECT_EQ(link_->sent[1]["session_id"], "s1");
  EXPECT_EQ(link_->sent[1]["payload"]["result"]["serverInfo"]["name"], "board");
  EXPECT_EQ(capabilities_["vision"]["url"], "http://v");
  EXPECT_TRUE(session->initialized());
}

TEST_F(AssistantSessionTest, PushesWaitForTheSessionAndPinEventsForInitialize) {
  auto session = start();
  session->notify("notifications/x", json::object());
  EXPECT_EQ(link_->sent.size(), 1u) << "only the hello before the session is established";
  server_hello();
  hub_.publish({EventKind::PinEvent, "button", {{"name", "button"}, {"value", true}}});
  EXPECT_EQ(link_->sent.size(), 1u) << "no pin events before initialize";
  server_mcp({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}});
  hub_.publish({EventKind::PinEvent, "button", {{"name", "button"}, {"value", false}}});
  ASSERT_EQ(link_->sent.size(), 3u);
  EXPECT_EQ(link_->sent[2]["payload"]["method"], "notifications/pin_event");
  EXPECT_EQ(link_->sent[2]["payload"]["params"]["value"], false);
  EXPECT_EQ(link_->sent[2]["session_id"], "s1");
}

TEST_F(AssistantSessionTest, AMissingHelloEndsTheAttemptAtTheDeadline) {
  auto session = start(std::chrono::milliseconds(5));
  for (int i = 0; i < 200 && !ended_; ++i) io_.run_one_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(ended_);
  EXPECT_EQ(*ended_, "no server hello within 5 ms");
  EXPECT_TRUE(link_->closed());
}

TEST_F(AssistantSessionTest, ARefusedHelloEndsTheAttemptWithTheReason) {
  auto session = start();
  link_->from_server({{"type", "hello"}, {"transport", "mqtt"}, {"session_id", "x"}});
  ASSERT_TRUE(ended_);
  EXPECT_EQ(*ended_, "server hello: transport must be \"websocket\", got \"mqtt\"");
}

TEST_F(AssistantSessionTest, GoodbyeEndsOnlyItsOwnSessionAndEndSaysIt) {
  auto session = start();
  server_hello("s1");
  link_->from_server({{"type", "goodbye"}, {"session_id", "old"}});
  EXPECT_FALSE(ended_);
  link_->from_server({{"type", "goodbye"}, {"session_id", "s1"}});
  ASSERT_TRUE(ended_);
  EXPECT_EQ(*ended_, "the server said goodbye");

  auto second_link = std::make_shared<ScriptedLink>();
  link_ = second_link;
  ended_.reset();
  auto next = start();
  server_hello("s2");
  next->end();
  ASSERT_EQ(second_link->sent.size(), 2u);
  EXPECT_EQ(second_link->sent[1], json::parse(R"({"session_id":"s2","type":"goodbye"})"));
  EXPECT_TRUE(second_link->closed());
  EXPECT_TRUE(ended_);
}

}  // namespace
}  // namespace mcpud::uplinks
