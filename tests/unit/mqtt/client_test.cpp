// SPDX-License-Identifier: MIT
// mqtt::Client against a real mosquitto broker: publish/subscribe with QoS and
// retain, MQTT 5 properties, 3.1.1, credentials, TLS, reconnection with
// re-subscription and the queue of messages published while disconnected.
#include "mcpud/mqtt/client.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <vector>

#include "support/mosquitto_broker.hpp"

namespace {

using namespace std::chrono_literals;
using mcpud::it::BrokerOptions;
using mcpud::it::Deadline;
using mcpud::it::MosquittoBroker;
using mcpud::mqtt::Client;
using mcpud::mqtt::Message;
using mcpud::mqtt::Options;
using mcpud::mqtt::ProtocolVersion;

// One client under test plus what it saw.
struct Peer {
  Peer(boost::asio::io_context& io, Options options) : client(io, std::move(options)) {
    client.on_connect([this] { ++connects; });
    client.on_disconnect([this](const std::string& reason) { reasons.push_back(reason); });
    client.on_message([this](const Message& m) { messages.push_back(m); });
  }
  Client client;
  int connects = 0;
  std::vector<std::string> reasons;
  std::vector<Message> messages;
};

class MqttClient : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(mcpud::it::mosquitto_installed())
        << "/usr/sbin/mosquitto is missing: scripts/install-deps.sh installs it (scripts/deps/mqtt.list)";
  }

  Options options_for(const MosquittoBroker& broker, const std::string& id) {
    Options o;
    o.port = static_cast<std::uint16_t>(broker.port());
    o.client_id = id;
    o.keepalive = 5s;
    o.retry_first = 50ms;
    o.retry_ceiling = 200ms;
    return o;
  }

  // Runs the event loop until `condition` holds or the deadline passes.
  template <class Condition>
  bool run_until(Condition condition, Deadline deadline = 10s) {
    while (!condition()) {
      if (deadline.expired()) return false;
      io_.run_for(10ms);
    }
    return true;
  }

  boost::asio::io_context io_;
};

TEST_F(MqttClient, DeliversQos1MessagesWithMqtt5Properties) {
  MosquittoBroker broker;
  ASSERT_TRUE(broker.start());
  Peer listener(io_, options_for(broker, "listener"));
  Peer talker(io_, options_for(broker, "talker"));
  ASSERT_TRUE(listener.client.subscribe("req/#", 1));
  listener.client.start();
  talker.client.start();
  ASSERT_TRUE(run_until([&] { return listener.connects == 1 && talker.connects == 1; }));

  Message m{"req/a", "hello", 1, false, "res/talker", std::string("\x00\x01id", 4)};
  ASSERT_TRUE(talker.client.publish(m));
  ASSERT_TRUE(run_until([&] { return !listener.messages.empty(); }));
  const auto& got = listener.messages.front();
  EXPECT_EQ(got.topic, "req/a");
  EXPECT_EQ(got.payload, "hello");
  EXPECT_EQ(got.qos, 1);
  EXPECT_EQ(got.response_topic, "res/talker");
  EXPECT_EQ(got.correlation_data, std::string("\x00\x01id", 4));
}

TEST_F(MqttClient, RetainedMessageReachesALateSubscriberUnderMqtt311) {
  MosquittoBroker broker;
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "early");
  options.version = ProtocolVersion::v311;
  Peer early(io_, options);
  early.client.start();
  ASSERT_TRUE(run_until([&] { return early.connects == 1; }));
  ASSERT_TRUE(early.client.publish(Message{"state/x", "on", 1, true, "ignored/without/v5", "x"}));

  options.client_id = "late";
  Peer late(io_, options);
  ASSERT_TRUE(late.client.subscribe("state/+", 1));
  late.client.start();
  ASSERT_TRUE(run_until([&] { return !late.messages.empty(); }));
  EXPECT_EQ(late.messages[0].payload, "on");
  EXPECT_TRUE(late.messages[0].retain);
  EXPECT_EQ(late.messages[0].response_topic, "");  // 3.1.1 has no properties
}

TEST_F(MqttClient, ReconnectsAfterABrokerRestartResubscribesAndSendsWhatWasQueued) {
  MosquittoBroker broker;
  ASSERT_TRUE(broker.start());
  Peer listener(io_, options_for(broker, "listener"));
  Peer talker(io_, options_for(broker, "talker"));
  ASSERT_TRUE(listener.client.subscribe("t", 1));
  ASSERT_TRUE(talker.client.subscribe("t", 1));
  listener.client.start();
  talker.client.start();
  ASSERT_TRUE(run_until([&] { return listener.connects == 1 && talker.connects == 1; }));

  broker.stop();
  ASSERT_TRUE(run_until([&] { return !listener.client.connected() && !talker.client.connected(); }));
  EXPECT_FALSE(talker.reasons.empty());
  ASSERT_TRUE(talker.client.publish(Message{"t", "queued while down", 1}));

  ASSERT_TRUE(broker.start());
  ASSERT_TRUE(run_until([&] { return listener.connects == 2 && talker.connects == 2; }));
  // The talker renews its own subscription before handing over the queue, so
  // it gets its queued message back through the restarted broker.
  ASSERT_TRUE(run_until([&] {
    return std::any_of(talker.messages.begin(), talker.messages.end(),
                       [](const Message& m) { return m.payload == "queued while down"; });
  }));
  // The listener's subscription was renewed too (a clean session forgets it).
  ASSERT_TRUE(talker.client.publish(Message{"t", "after restart", 1}));
  ASSERT_TRUE(
      run_until([&] { return !listener.messages.empty() && listener.messages.back().payload == "after restart"; }));
}

TEST_F(MqttClient, AHostNameIsResolvedAndItsAddressesTriedInTurn) {
  MosquittoBroker broker;  // listens on 127.0.0.1 only: "localhost" may give ::1 first
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "named");
  options.host = "localhost";
  Peer peer(io_, options);
  peer.client.start();
  ASSERT_TRUE(run_until([&] { return peer.connects == 1; }));

  options.client_id = "nowhere";
  options.host = "no-such-host.invalid";
  Peer lost(io_, options);
  lost.client.start();
  ASSERT_TRUE(run_until([&] { return !lost.reasons.empty() || lost.connects > 0; }, 30s));
  EXPECT_EQ(lost.connects, 0);
}

TEST_F(MqttClient, WrongPasswordIsRefusedWithAReasonAndTheRightOneConnects) {
  MosquittoBroker broker(BrokerOptions{"device", "s3cret"});
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "wrong");
  options.username = "device";
  options.password = "nope";
  Peer wrong(io_, options);
  wrong.client.start();
  ASSERT_TRUE(run_until([&] { return !wrong.reasons.empty(); }));
  EXPECT_NE(wrong.reasons[0].find("refused"), std::string::npos) << wrong.reasons[0];
  EXPECT_EQ(wrong.connects, 0);

  options.client_id = "right";
  options.password = "s3cret";
  Peer right(io_, options);
  right.client.start();
  ASSERT_TRUE(run_until([&] { return right.connects == 1; }));
}

TEST_F(MqttClient, ConnectsOverTlsVerifyingTheBrokerAgainstTheConfiguredCa) {
  MosquittoBroker broker(BrokerOptions{.tls = true});
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "tls");
  options.tls = mcpud::mqtt::TlsOptions{.ca_file = broker.ca_file()};
  Peer peer(io_, options);
  ASSERT_TRUE(peer.client.subscribe("echo", 1));
  peer.client.start();
  ASSERT_TRUE(run_until([&] { return peer.connects == 1; }));
  ASSERT_TRUE(peer.client.publish(Message{"echo", "over tls", 1}));
  ASSERT_TRUE(run_until([&] { return !peer.messages.empty(); }));
  EXPECT_EQ(peer.messages[0].payload, "over tls");
}

TEST_F(MqttClient, AnUnknownBrokerCertificateIsRefusedUnlessVerificationIsSkipped) {
  MosquittoBroker broker(BrokerOptions{.tls = true});
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "strict");
  options.tls = mcpud::mqtt::TlsOptions{};  // the system CA store does not know the test CA
  Peer strict(io_, options);
  strict.client.start();
  ASSERT_TRUE(run_until([&] { return !strict.reasons.empty(); }));
  EXPECT_EQ(strict.connects, 0);

  options.client_id = "lax";
  options.tls = mcpud::mqtt::TlsOptions{.insecure_skip_verify = true};
  Peer lax(io_, options);
  lax.client.start();
  ASSERT_TRUE(run_until([&] { return lax.connects == 1; }));
  EXPECT_EQ(strict.connects, 0);
}

TEST_F(MqttClient, ABrokerThatWantsAClientCertificateGetsTheConfiguredOne) {
  MosquittoBroker broker(BrokerOptions{.tls = true, .require_certificate = true});
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "anonymous");
  options.tls = mcpud::mqtt::TlsOptions{.ca_file = broker.ca_file()};
  Peer anonymous(io_, options);
  anonymous.client.start();
  ASSERT_TRUE(run_until([&] { return !anonymous.reasons.empty(); }));

  options.client_id = "certified";
  options.tls = mcpud::mqtt::TlsOptions{
      .ca_file = broker.ca_file(), .cert_file = broker.client_cert(), .key_file = broker.client_key()};
  Peer certified(io_, options);
  certified.client.start();
  ASSERT_TRUE(run_until([&] { return certified.connects == 1; }));
  EXPECT_EQ(anonymous.connects, 0);
}

TEST_F(MqttClient, ManyQos0MessagesWrittenAtOnceDoNotFillTheQueueBound) {
  MosquittoBroker broker;
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "busy");
  options.max_queued = 16;
  Peer peer(io_, options);
  ASSERT_TRUE(peer.client.subscribe("echo", 1));
  peer.client.start();
  ASSERT_TRUE(run_until([&] { return peer.connects == 1; }));
  // Outside a callback each QoS 0 message is written during publish() itself.
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(peer.client.publish(Message{"events", "e", 0}));
  ASSERT_TRUE(peer.client.publish(Message{"echo", "still accepted", 1})) << "QoS 1 refused after QoS 0 traffic";
  ASSERT_TRUE(run_until([&] { return !peer.messages.empty(); }));
  EXPECT_EQ(peer.messages[0].payload, "still accepted");
}

TEST_F(MqttClient, ASaturatedLinkDropsNewQos0MessagesButKeepsRoomForQos1) {
  MosquittoBroker broker;
  ASSERT_TRUE(broker.start());
  auto options = options_for(broker, "flooder");
  options.max_queued = 16;
  Peer peer(io_, options);
  ASSERT_TRUE(peer.client.subscribe("echo", 1));
  peer.client.start();
  ASSERT_TRUE(run_until([&] { return peer.connects == 1; }));
  broker.freeze();  // stops reading: the socket fills up
  const std::string big(256 * 1024, 'x');
  int accepted = 0;
  for (int i = 0; i < 200 && peer.client.publish(Message{"events", big, 0}); ++i) {
    ++accepted;
    io_.poll();
  }
  EXPECT_LT(accepted, 200) << "a full socket must bound the QoS 0 backlog";
  EXPECT_GT(peer.client.dropped(), 0u);
  ASSERT_TRUE(peer.client.publish(Message{"echo", "reply", 1}));  // QoS 1 still has room
  broker.thaw();
  ASSERT_TRUE(run_until([&] { return !peer.messages.empty(); }, 30s));
  EXPECT_EQ(peer.messages.back().payload, "reply");
}

TEST_F(MqttClient, StopSendsDisconnectSoTheWillIsNotPublished) {
  MosquittoBroker broker;
  ASSERT_TRUE(broker.start());
  Peer watcher(io_, options_for(broker, "watcher"));
  ASSERT_TRUE(watcher.client.subscribe("status", 1));
  watcher.client.start();
  auto options = options_for(broker, "device");
  options.will = mcpud::mqtt::WillOptions{"status", "offline", 1, false};
  auto device = std::make_unique<Peer>(io_, options);
  device->client.start();
  ASSERT_TRUE(run_until([&] { return watcher.connects == 1 && device->connects == 1; }));
  ASSERT_TRUE(device->client.publish(Message{"status", "bye", 1}));
  device->client.stop();
  device.reset();
  ASSERT_TRUE(run_until([&] { return !watcher.messages.empty(); }));
  // Once "bye" is in, a will would have come before it or not at all.
  ASSERT_TRUE(watcher.client.publish(Message{"status", "marker", 1}));
  ASSERT_TRUE(run_until([&] { return watcher.messages.back().payload == "marker"; }));
  for (const auto& m : watcher.messages) EXPECT_NE(m.payload, "offline");
}

}  // namespace
