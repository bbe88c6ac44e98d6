// SPDX-License-Identifier: MIT
// The voice-assistant uplink's connection life with a test backend: headers and
// hello, identity, the hello deadline, keepalive pings, reconnects after a drop
// or a goodbye, bounded messages, goodbye at shutdown, and wss:// verification.
#include <regex>

#include "support/line_client.hpp"

#include "assistant/assistant_fixture.hpp"

namespace mcpud::it {
namespace {

TEST_F(AssistantUplinkTest, ConnectsWithTheReferenceHeadersAndHello) {
  daemon_.write_file("token", "secret-token\n");
  start("token_file = \"" + (daemon_.temp_dir().path() / "token").string() +
        "\"\ndevice_id = \"aa:bb:cc:dd:ee:ff\"\nclient_id = \"0f8a3c2e-1111-4222-8333-444455556666\"");
  auto connection = backend_.accept();
  ASSERT_TRUE(connection) << daemon_.log();
  const auto& headers = connection->headers();
  EXPECT_EQ(connection->target(), "/xiaozhi/v1/?board=1");
  EXPECT_EQ(headers.at("authorization"), "Bearer secret-token");
  EXPECT_EQ(headers.at("protocol-version"), "1");
  EXPECT_EQ(headers.at("device-id"), "aa:bb:cc:dd:ee:ff");
  EXPECT_EQ(headers.at("client-id"), "0f8a3c2e-1111-4222-8333-444455556666");

  AssistantPeer peer(connection);
  ASSERT_TRUE(peer.handshake("s-42"));
  const auto& hello = peer.device_hello();
  EXPECT_EQ(hello["type"], "hello");
  EXPECT_EQ(hello["version"], 1);
  EXPECT_EQ(hello["features"]["mcp"], true);
  EXPECT_EQ(hello["transport"], "websocket");
  EXPECT_EQ(hello["audio_params"]["format"], "opus");
  EXPECT_EQ(peer.result("ping"), json::object());
  EXPECT_EQ(daemon_.log().find("secret-token"), std::string::npos) << "the token must never be logged";
}

TEST_F(AssistantUplinkTest, DefaultIdentityIsAMacAndAUuidThatSurviveReconnects) {
  start();
  auto first = connect("s-1");
  ASSERT_TRUE(first);
  const auto device_id = first->connection().headers().at("device-id");
  const auto client_id = first->connection().headers().at("client-id");
  EXPECT_TRUE(std::regex_match(device_id, std::regex("([0-9a-f]{2}:){5}[0-9a-f]{2}"))) << device_id;
  EXPECT_TRUE(
      std::regex_match(client_id, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << client_id;
  EXPECT_EQ(first->connection().headers().count("authorization"), 0u) << "no token configured, no header";

  // The server vanishes: mcpud dials again, says hello again, and serves the new session.
  first->connection().drop();
  auto second = connect("s-2");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->device_hello()["type"], "hello");
  EXPECT_EQ(second->connection().headers().at("device-id"), device_id);
  EXPECT_EQ(second->connection().headers().at("client-id"), client_id);
  const auto status = second->result("tools/call", {{"name", "assistant_status"}});
  EXPECT_EQ(status["structuredContent"]["session_id"], "s-2");
  EXPECT_EQ(status["structuredContent"]["initialized"], false) << "a new session is initialized afresh";
  EXPECT_EQ(status["structuredContent"]["sessions"], 2);
}

TEST_F(AssistantUplinkTest, GoodbyeFromTheServerEndsTheSessionAndMcpudComesBack) {
  start();
  auto first = initialized("s-1");
  ASSERT_TRUE(first);
  first->connection().send(json{{"session_id", "s-1"}, {"type", "goodbye"}}.dump());
  EXPECT_TRUE(first->connection().wait_closed());
  auto second = initialized("s-2");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->result("ping"), json::object());
}

TEST_F(AssistantUplinkTest, ShutdownSaysGoodbye) {
  start();
  auto peer = initialized("s-bye");
  ASSERT_TRUE(peer);
  daemon_.signal(SIGTERM);
  std::optional<json> goodbye;
  while (auto message = peer->connection().receive()) {
    if (message->value("type", "") == "goodbye") {
      goodbye = message;
      break;
    }
  }
  ASSERT_TRUE(goodbye) << daemon_.log();
  EXPECT_EQ((*goodbye)["session_id"], "s-bye");
  EXPECT_TRUE(peer->connection().wait_closed());
  EXPECT_EQ(daemon_.wait_exit(), 0);
}

TEST_F(AssistantUplinkTest, AReloadThatChangesTheTableStartsANewSessionAndOneThatRemovesItSaysGoodbye) {
  start("device_id = \"aa:bb:cc:dd:ee:01\"");
  auto first = initialized("s-old");
  ASSERT_TRUE(first);
  reload("device_id = \"aa:bb:cc:dd:ee:02\"", "");
  std::optional<json> goodbye;
  while (auto message = first->connection().receive()) {
    if (message->value("type", "") == "goodbye") goodbye = message;
  }
  ASSERT_TRUE(goodbye) << daemon_.log();
  EXPECT_EQ((*goodbye)["session_id"], "s-old");
  auto second = connect("s-new");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->connection().headers().at("device-id"), "aa:bb:cc:dd:ee:02");

  // Without the table the uplink goes, and its tool with it.
  const int port = daemon_.wait_for_port();
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  EXPECT_TRUE(client->call("assistant_status").contains("result"));
  config_path_ =
      daemon_.write_file("mcpud.toml", "board = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n[unix_socket]\npath = \"\"\n");
  daemon_.signal(SIGHUP);
  EXPECT_TRUE(second->connection().wait_closed());
  EXPECT_TRUE(daemon_.wait_for_log("reloaded"));
  EXPECT_EQ(client->call("assistant_status")["error"]["code"], -32601);
}

TEST_F(AssistantUplinkTest, AServerThatDoesNotAnswerTheHelloIsRetried) {
  start("hello_timeout_ms = 300");
  auto silent = backend_.accept();
  ASSERT_TRUE(silent);
  ASSERT_TRUE(silent->receive());  // mcpud's hello, left unanswered
  EXPECT_TRUE(silent->wait_closed());
  EXPECT_TRUE(daemon_.wait_for_log("no server hello within 300 ms"));

  // A hello for another transport is refused too.
  auto wrong = backend_.accept();
  ASSERT_TRUE(wrong);
  ASSERT_TRUE(wrong->receive());
  wrong->send(json{{"type", "hello"}, {"transport", "udp"}, {"session_id", "x"}}.dump());
  EXPECT_TRUE(wrong->wait_closed());
  EXPECT_TRUE(daemon_.wait_for_log("transport must be \"websocket\""));

  auto good = connect("s-3");
  ASSERT_TRUE(good);
  EXPECT_EQ(good->result("ping"), json::object());
}

TEST_F(AssistantUplinkTest, AnOversizedMessageDropsTheLinkNotTheDaemon) {
  start("max_message_bytes = 2048");
  auto peer = initialized("s-big");
  ASSERT_TRUE(peer);
  peer->send_mcp({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}, {"params", {{"pad", std::string(8192, 'x')}}}});
  EXPECT_TRUE(peer->connection().wait_closed());
  EXPECT_TRUE(daemon_.wait_for_log("exceeded 2048 bytes"));
  auto again = initialized("s-after");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->result("ping"), json::object());
}

TEST_F(AssistantUplinkTest, KeepsAnIdleLinkAliveWithPings) {
  start("ping_interval_ms = 100");
  auto peer = connect();
  ASSERT_TRUE(peer);
  EXPECT_TRUE(eventually([&] { return peer->connection().pings() >= 3; }, 10s));
  EXPECT_EQ(peer->result("ping"), json::object());
}

TEST_F(AssistantUplinkTest, IgnoresWhatItDoesNotSpeakAndAnswersBatches) {
  start();
  auto peer = initialized("s-odd");
  ASSERT_TRUE(peer);
  auto& link = peer->connection();
  link.send("this is not JSON");
  link.send(json{{"session_id", "s-odd"}, {"type", "tts"}, {"state", "start"}}.dump());
  link.send(json{{"session_id", "s-odd"}, {"type", "mcp"}, {"payload", 7}}.dump());
  link.send(json{{"type", "hello"}, {"transport", "websocket"}, {"session_id", "another"}}.dump());
  peer->send_mcp({{"jsonrpc", "1.0"}, {"id", 77}, {"method", "ping"}});
  const auto refused = link.receive();
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["session_id"], "s-odd");
  EXPECT_EQ((*refused)["payload"]["error"]["code"], -32600);
  peer->send_mcp(
      json::array({{{"jsonrpc", "2.0"}, {"id", "a"}, {"method", "ping"}},
                   {{"jsonrpc", "2.0"}, {"id", "b"}, {"method", "tools/call"}, {"params", {{"name", "x"}}}}}));
  const auto batch = link.receive();
  ASSERT_TRUE(batch);
  ASSERT_TRUE((*batch)["payload"].is_array()) << batch->dump();
  EXPECT_EQ((*batch)["payload"].size(), 2u);
  EXPECT_EQ(peer->result("ping"), json::object());
  EXPECT_EQ(daemon_.count_in_log("connected, session"), 1u);
}

TEST(AssistantHungServer, ASilentServerIsLeftAndDialedAgain) {
  WsBackend backend(std::nullopt, /*reads_per_connection=*/2);  // the hello and one reply, then deaf
  DaemonProcess daemon;
  const auto path = daemon.write_file(
      "mcpud.toml",
      assistant_config("ws://127.0.0.1:" + std::to_string(backend.port()) + "/", "ping_interval_ms = 100"));
  ASSERT_TRUE(daemon.start({"--config", path}));
  auto connection = backend.accept();
  ASSERT_TRUE(connection);
  AssistantPeer peer(connection);
  ASSERT_TRUE(peer.handshake("s-hung"));
  EXPECT_EQ(peer.result("ping"), json::object());
  EXPECT_TRUE(daemon.wait_for_log("nothing from the server (not even a pong)")) << daemon.log();
  EXPECT_TRUE(backend.accept()) << "mcpud must dial again";
}

TEST(AssistantHungServer, AServerThatSendsButNeverReadsIsDroppedAtTheQueueBound) {
  WsBackend backend(std::nullopt, /*reads_per_connection=*/2);
  DaemonProcess daemon;
  const auto path = daemon.write_file(
      "mcpud.toml", assistant_config("ws://127.0.0.1:" + std::to_string(backend.port()) + "/", "queue_bytes = 65536"));
  ASSERT_TRUE(daemon.start({"--config", path}));
  auto connection = backend.accept();
  ASSERT_TRUE(connection);
  AssistantPeer peer(connection);
  ASSERT_TRUE(peer.handshake("s-flood"));
  EXPECT_EQ(peer.result("ping"), json::object());
  // Requests keep coming, replies pile up: past the socket buffers and 64 KiB of queue, mcpud lets go.
  const auto request = json{{"session_id", "s-flood"},
                            {"type", "mcp"},
                            {"payload", {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}}}
                           .dump();
  for (int i = 0; i < 40000 && !daemon.count_in_log("not reading"); ++i) connection->send(request);
  // Generous: a slow machine (or valgrind) takes a while to answer tens of thousands of requests.
  EXPECT_TRUE(daemon.wait_for_log("bytes queued for a server that is not reading", 60s)) << daemon.log();
  EXPECT_TRUE(backend.accept()) << "mcpud must dial again";
  EXPECT_TRUE(daemon.running());
}

}  // namespace
}  // namespace mcpud::it
