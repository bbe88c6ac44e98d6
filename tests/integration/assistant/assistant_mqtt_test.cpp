// SPDX-License-Identifier: MIT
// The MQTT variant of the voice-assistant uplink through a real mosquitto
// broker: the hello on the device's topic, MCP on the reply topic, notifications,
// a new session after goodbye, reconnection after a broker restart, goodbye at
// shutdown.
#include "assistant/assistant_fixture.hpp"
#include "assistant/mqtt_backend.hpp"
#include "support/mosquitto_broker.hpp"

namespace mcpud::it {
namespace {

constexpr const char* kDeviceTopic = "xiaozhi/test-board/up";
constexpr const char* kReplyTopic = "devices/p2p/aa_bb_cc_00_00_01";  // the default for this Device-Id

class AssistantMqttTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(mosquitto_installed())
        << "/usr/sbin/mosquitto is missing: scripts/install-deps.sh installs it (scripts/deps/mqtt.list)";
    ASSERT_TRUE(broker_.start());
    backend_.emplace(broker_.port(), kDeviceTopic, kReplyTopic);
    ASSERT_TRUE(backend_->wait_subscribed());
    const std::string uplink = "transport = \"mqtt\"\nbroker = \"" + broker_.address() + "\"\npublish_topic = \"" +
                               kDeviceTopic + "\"\ndevice_id = \"aa:bb:cc:00:00:01\"\n" +
                               // A hello published while the backend is away is lost: ask again soon.
                               "hello_timeout_ms = 1000\n";
    const auto path = daemon_.write_file("mcpud.toml", assistant_config("", uplink));
    ASSERT_TRUE(daemon_.start({"--config", path}));
  }

  // Reads mcpud's next hello and answers it under `session_id`.
  std::optional<AssistantPeer> session(const std::string& session_id) {
    AssistantPeer peer(std::shared_ptr<MessageConnection>(&*backend_, [](MessageConnection*) {}), "udp");
    if (!peer.handshake(session_id)) return std::nullopt;
    return peer;
  }

  MosquittoBroker broker_;
  std::optional<MqttBackend> backend_;
  DaemonProcess daemon_;
};

TEST_F(AssistantMqttTest, ServesMcpOverTheDeviceAndReplyTopics) {
  auto peer = session("mqtt-1");
  ASSERT_TRUE(peer) << daemon_.log();
  const auto& hello = peer->device_hello();
  EXPECT_EQ(hello["transport"], "udp");
  EXPECT_EQ(hello["features"]["mcp"], true);

  const auto init =
      peer->result("initialize", {{"capabilities", {{"vision", {{"url", "http://v/"}, {"token", "t"}}}}}});
  EXPECT_EQ(init["serverInfo"]["name"], "assistant-test");
  const auto status = peer->result("tools/call", {{"name", "assistant_status"}})["structuredContent"];
  EXPECT_EQ(status["transport"], "mqtt");
  EXPECT_EQ(status["session_id"], "mqtt-1");
  EXPECT_EQ(status["capabilities"]["vision"]["url"], "http://v/");
  // A persistent MQTT 3.1.1 connection (p2) with the firmware's 240 s keepalive, named by the Client-Id.
  EXPECT_NE(broker_.log().find(status["client_id"].get<std::string>() + " (p2, c1, k240)"), std::string::npos)
      << broker_.log();

  const auto first_page = peer->result("tools/list", {{"cursor", ""}});
  ASSERT_TRUE(first_page.contains("nextCursor"));
  const auto second_page = peer->result("tools/list", {{"cursor", first_page["nextCursor"]}});
  EXPECT_EQ(second_page["tools"][0]["name"], first_page["nextCursor"]);
  EXPECT_EQ(
      peer->result("tools/call", {{"name", "gpio_write"}, {"arguments", {{"pin", 2}, {"value", true}}}})["isError"],
      false);
  EXPECT_EQ(peer->request("tools/call", {{"name", "nope"}})["error"]["code"], -32601) << "as the firmware answers";
  ASSERT_TRUE(peer->notification("notifications/pin_event"));

  // Goodbye ends the session, not the broker connection: mcpud says hello again.
  backend_->send(json{{"session_id", "mqtt-1"}, {"type", "goodbye"}}.dump());
  auto next = session("mqtt-2");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->result("ping"), json::object());
  EXPECT_EQ(daemon_.count_in_log("broker connection lost"), 0u) << daemon_.log();
}

TEST_F(AssistantMqttTest, ComesBackAfterABrokerRestartAndSaysGoodbyeAtShutdown) {
  auto peer = session("before");
  ASSERT_TRUE(peer) << daemon_.log();
  peer->result("initialize");

  const int subscribed = backend_->subscriptions();
  broker_.stop();
  ASSERT_TRUE(broker_.start());
  ASSERT_TRUE(daemon_.wait_for_log("broker connection lost")) << daemon_.log();
  ASSERT_TRUE(backend_->wait_subscribed(subscribed));
  auto after = session("after");
  ASSERT_TRUE(after) << daemon_.log();
  EXPECT_EQ(after->result("ping"), json::object());

  daemon_.signal(SIGTERM);
  std::optional<json> goodbye;
  while (auto message = backend_->receive()) {
    if (message->value("type", "") == "goodbye") {
      goodbye = message;
      break;
    }
  }
  ASSERT_TRUE(goodbye) << daemon_.log();
  EXPECT_EQ((*goodbye)["session_id"], "after");
  EXPECT_EQ(daemon_.wait_exit(), 0);
}

TEST(AssistantMqttSecure, LogsInOverTlsWithAPasswordFromAFile) {
  ASSERT_TRUE(mosquitto_installed())
      << "/usr/sbin/mosquitto is missing: scripts/install-deps.sh installs it (scripts/deps/mqtt.list)";
  MosquittoBroker broker({"board", "broker-secret", true});
  ASSERT_TRUE(broker.start());
  MqttBackend backend(broker.port(), kDeviceTopic, kReplyTopic, {broker.ca_file(), "board", "broker-secret"});
  ASSERT_TRUE(backend.wait_subscribed());
  DaemonProcess daemon;
  const auto password_file = daemon.write_file("broker-password", "broker-secret\n");
  const std::string uplink = "transport = \"mqtt\"\nbroker = \"" + broker.address() + "\"\npublish_topic = \"" +
                             kDeviceTopic + "\"\ndevice_id = \"aa:bb:cc:00:00:01\"\ntls = true\nca_file = \"" +
                             broker.ca_file() + "\"\nusername = \"board\"\npassword_file = \"" + password_file + "\"\n";
  ASSERT_TRUE(daemon.start({"--config", daemon.write_file("mcpud.toml", assistant_config("", uplink))}));
  AssistantPeer peer(std::shared_ptr<MessageConnection>(&backend, [](MessageConnection*) {}), "udp");
  ASSERT_TRUE(peer.handshake("tls-mqtt")) << daemon.log() << broker.log();
  EXPECT_EQ(peer.result("ping"), json::object());
  EXPECT_EQ(daemon.log().find("broker-secret"), std::string::npos) << "the password must never be logged";
}

}  // namespace
}  // namespace mcpud::it
