// SPDX-License-Identifier: MIT
// MQTT fleet mode with the real binary on a real mosquitto: several devices on
// one broker, discovery through retained info and status, JSON-RPC over MQTT 5
// request/response and the 3.1.1 per-client fallback, bad requests, a broker
// restart, the last will after kill -9, pin events, and the host-side example.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "support/configs.hpp"
#include "support/daemon_process.hpp"
#include "support/mosquitto_broker.hpp"
#include "support/mqtt_peer.hpp"
#include "support/serial_peer.hpp"

namespace mcpud::it {
namespace {

using nlohmann::json;

class Fleet : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(mosquitto_installed())
        << "/usr/sbin/mosquitto is missing: scripts/install-deps.sh installs it (scripts/deps/mqtt.list)";
    ASSERT_TRUE(broker_.start());
  }

  // Starts an mcpud named `device` with [uplink.fleet] pointing at the broker
  // plus `fleet_lines` (and `limits` in [limits]), and waits until it says it is connected.
  DaemonProcess& start_device(const std::string& device, const std::string& fleet_lines = "",
                              const std::string& limits = "") {
    auto& daemon = *devices_.emplace_back(std::make_unique<DaemonProcess>());
    const auto fleet = "\n[uplink.fleet]\nbroker = \"" + broker_.address() + "\"\nkeepalive_s = 5\n" +
                       "retry_max_ms = 200\n" + fleet_lines;
    const auto config =
        daemon.write_file("mcpud.toml", sim_config_toml({.device = device, .limits = limits, .extra_pins = fleet}));
    EXPECT_GT(daemon.start_tcp({"--config", config}), 0);
    // "online" follows the device's subscription to its request topic: from
    // then on requests reach it.
    MqttPeer watcher(broker_.port(), "watcher-" + device);
    watcher.subscribe("mcpud/" + device + "/status");
    EXPECT_TRUE(watcher.wait_for([](const MqttMessage& m) { return m.payload == "online"; })) << daemon.log();
    return daemon;
  }

  // A JSON-RPC call over MQTT 5: request with response topic and correlation
  // data; nothing when no reply came by the deadline.
  std::optional<json> try_call(MqttPeer& peer, const std::string& device, const std::string& method, const json& params,
                               const std::string& correlation, Deadline deadline) {
    const auto reply_topic = "host/replies/" + device;
    peer.subscribe(reply_topic);
    peer.clear();
    peer.publish("mcpud/" + device + "/rpc/req",
                 json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}}.dump(), reply_topic,
                 correlation);
    auto reply = peer.wait_for([&](const MqttMessage& m) { return m.topic == reply_topic; }, deadline);
    if (!reply) return std::nullopt;
    EXPECT_EQ(reply->correlation_data, correlation);
    return json::parse(reply->payload);
  }

  json call(MqttPeer& peer, const std::string& device, const std::string& method, const json& params = json::object(),
            const std::string& correlation = "c1") {
    auto reply = try_call(peer, device, method, params, correlation, 10s);
    if (!reply) ADD_FAILURE() << "no reply from " << device << " to " << method;
    return reply.value_or(json());
  }

  MosquittoBroker broker_;
  std::vector<std::unique_ptr<DaemonProcess>> devices_;
};

TEST_F(Fleet, EveryDeviceAnnouncesItselfRetainedAndAnswersRpcOverMqtt5) {
  for (const auto* name : {"board-a", "board-b", "board-c"}) start_device(name);

  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/+/info");
  host.subscribe("mcpud/+/status");
  for (const std::string name : {"board-a", "board-b", "board-c"}) {
    ASSERT_TRUE(host.wait_for_topic("mcpud/" + name + "/info")) << name;
    ASSERT_TRUE(host.wait_for_topic("mcpud/" + name + "/status")) << name;
  }
  // Everything is published by now: a host arriving later gets it all retained.
  MqttPeer late(broker_.port(), "late");
  late.subscribe("mcpud/+/info");
  late.subscribe("mcpud/+/status");
  for (const std::string name : {"board-a", "board-b", "board-c"}) {
    auto info = late.wait_for_topic("mcpud/" + name + "/info");
    ASSERT_TRUE(info) << name;
    EXPECT_TRUE(info->retain);
    const auto document = json::parse(info->payload);
    EXPECT_EQ(document["device"], name);
    EXPECT_EQ(document["info"]["device"], name);
    EXPECT_EQ(document["topics"]["request"], "mcpud/" + name + "/rpc/req");
    std::set<std::string> tools;
    for (const auto& tool : document["tools"]) tools.insert(tool["name"].get<std::string>());
    EXPECT_TRUE(tools.contains("gpio_write") && tools.contains("get_info")) << info->payload;
    auto status = late.wait_for_topic("mcpud/" + name + "/status");
    ASSERT_TRUE(status);
    EXPECT_EQ(status->payload, "online");
    EXPECT_TRUE(status->retain);
  }
  for (const std::string name : {"board-a", "board-b", "board-c"}) {
    const auto reply = call(host, name, "get_info", json::object(), "corr-" + name);
    EXPECT_EQ(reply["result"]["device"], name) << reply.dump();
  }
  // Standard MCP through the same topic.
  const auto listed = call(host, "board-b", "tools/list");
  EXPECT_TRUE(listed["result"]["tools"].is_array()) << listed.dump();
  const auto written =
      call(host, "board-c", "tools/call", {{"name", "gpio_write"}, {"arguments", {{"pin", 2}, {"value", true}}}});
  EXPECT_EQ(written["result"]["isError"], false) << written.dump();
}

TEST_F(Fleet, Mqtt311ClientsGetRepliesOnTheirPerClientTopic) {
  start_device("v5-device");
  start_device("v3-device", "mqtt_version = \"3.1.1\"\n");
  MqttPeer old_host(broker_.port(), "old-host", /*mqtt5=*/false);
  for (const std::string device : {"v5-device", "v3-device"}) {
    old_host.subscribe("mcpud/" + device + "/rpc/res/old-host");
    old_host.publish("mcpud/" + device + "/rpc/req/old-host", R"({"jsonrpc":"2.0","id":"x","method":"get_info"})");
    auto reply = old_host.wait_for_topic("mcpud/" + device + "/rpc/res/old-host");
    ASSERT_TRUE(reply) << device;
    EXPECT_EQ(json::parse(reply->payload)["result"]["device"], device);
  }
  // No response topic and no client id: the shared reply topic.
  old_host.subscribe("mcpud/v3-device/rpc/res");
  old_host.publish("mcpud/v3-device/rpc/req", R"({"jsonrpc":"2.0","id":9,"method":"get_info"})");
  auto shared = old_host.wait_for_topic("mcpud/v3-device/rpc/res");
  ASSERT_TRUE(shared);
  EXPECT_EQ(json::parse(shared->payload)["id"], 9);
}

// A batch whose replies together would be megabytes is bounded as on the line
// transports (client_queue_bytes): one MQTT message, REPLY_TOO_LARGE past it.
TEST_F(Fleet, ABatchsRepliesAreBoundedAsALinesAre) {
  start_device("board-b", "", "client_queue_bytes = 65536");
  MqttPeer host(broker_.port(), "host");
  host.subscribe("r/batch");
  json batch = json::array();
  for (int i = 0; i < 400; ++i) batch.push_back({{"jsonrpc", "2.0"}, {"id", i}, {"method", "list_tools"}});
  host.publish("mcpud/board-b/rpc/req", batch.dump(), "r/batch", "b");
  const auto reply = host.wait_for_topic("r/batch", 20s);
  ASSERT_TRUE(reply);
  EXPECT_LE(reply->payload.size(), 65536u + 400u * 300u);
  const auto replies = json::parse(reply->payload);
  ASSERT_EQ(replies.size(), 400u);
  const auto too_large = std::count_if(replies.begin(), replies.end(), [](const json& r) {
    return r.contains("error") && r["error"]["data"].value("code", "") == "REPLY_TOO_LARGE";
  });
  EXPECT_GT(too_large, 300);
  EXPECT_LT(too_large, 400) << "the first replies fit";
}

TEST_F(Fleet, BadRequestsGetJsonRpcErrorsAndTheDeviceKeepsServing) {
  auto& device = start_device("board-x");
  MqttPeer host(broker_.port(), "host");
  host.subscribe("r/#");
  auto ask = [&](const std::string& payload, const std::string& correlation) {
    host.publish("mcpud/board-x/rpc/req", payload, "r/" + correlation, correlation);
    auto reply = host.wait_for_topic("r/" + correlation);
    EXPECT_TRUE(reply) << payload;
    return reply ? json::parse(reply->payload) : json();
  };
  EXPECT_EQ(ask("{not json", "parse")["error"]["code"], -32700);
  EXPECT_EQ(ask(R"({"jsonrpc":"2.0","id":1,"method":"no_such_tool"})", "unknown")["error"]["code"], -32601);
  const auto invalid =
      ask(R"({"jsonrpc":"2.0","id":2,"method":"gpio_write","params":{"pin":"two","value":true}})", "params");
  EXPECT_EQ(invalid["error"]["code"], -32602);
  EXPECT_NE(invalid["error"]["message"].get<std::string>().find("params.pin"), std::string::npos) << invalid.dump();
  EXPECT_EQ(ask(std::string(70000, '['), "huge")["error"]["code"], -32600);  // over max_line_bytes
  EXPECT_EQ(ask("", "empty")["error"]["code"], -32700);
  EXPECT_EQ(ask("\xff\xfe{\x80}", "binary")["error"]["code"], -32700);
  const auto deep = ask(std::string(5000, '[') + std::string(5000, ']'), "deep");  // under the size cap
  EXPECT_TRUE(deep.contains("error")) << deep.dump();
  EXPECT_EQ(ask(R"({"jsonrpc":"2.0","id":3,"method":"get_info"})", "good")["result"]["device"], "board-x");
  EXPECT_TRUE(device.running());
}

TEST_F(Fleet, NotificationsAndBatchesDoNotUseUpTheInFlightBound) {
  start_device("board-n", "max_in_flight = 1\n");
  MqttPeer host(broker_.port(), "host");
  host.subscribe("r/#");
  // Notifications get no reply and must not hold a slot.
  for (int i = 0; i < 5; ++i)
    host.publish("mcpud/board-n/rpc/req", R"({"jsonrpc":"2.0","method":"gpio_write","params":{"pin":2,"value":true}})",
                 "r/notify", "n");
  host.publish(
      "mcpud/board-n/rpc/req",
      R"([{"jsonrpc":"2.0","id":1,"method":"get_info"},{"jsonrpc":"2.0","id":2,"method":"gpio_read","params":{"pin":2}}])",
      "r/batch", "b");
  auto batch = host.wait_for_topic("r/batch");
  ASSERT_TRUE(batch);
  const auto replies = json::parse(batch->payload);
  ASSERT_TRUE(replies.is_array()) << batch->payload;
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[1]["result"]["value"], true);  // the notifications were served first
  EXPECT_EQ(batch->correlation_data, "b");
  for (const auto& m : host.messages()) EXPECT_NE(m.topic, "r/notify") << m.payload;
}

TEST_F(Fleet, RequestsPastMaxInFlightGetBusyAndTheDeviceRecovers) {
  // A serial read waiting for data holds its request in flight.
  auto& daemon = *devices_.emplace_back(std::make_unique<DaemonProcess>());
  SerialPeer peer(daemon.temp_dir().path() / "ttyBUSY");
  ASSERT_TRUE(peer.ok());
  const auto ptys = daemon.temp_dir().path().string() + "/tty*";
  const auto extra = "\n[serial]\nports = [\"" + ptys + "\"]\nallowed_ports = [\"" + ptys +
                     "\"]\n[uplink.fleet]\nbroker = \"" + broker_.address() + "\"\nmax_in_flight = 1\n";
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.device = "board-busy", .extra_pins = extra}));
  ASSERT_GT(daemon.start_tcp({"--config", config}), 0);
  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/board-busy/status");
  ASSERT_TRUE(host.wait_for([](const MqttMessage& m) { return m.payload == "online"; }));

  const auto session = call(host, "board-busy", "serial_connect", {{"port", peer.link()}})["result"]["session_id"];
  ASSERT_TRUE(session.is_string());
  host.subscribe("r/#");
  host.publish("mcpud/board-busy/rpc/req",
               json{{"jsonrpc", "2.0"},
                    {"id", 1},
                    {"method", "serial_read"},
                    {"params", {{"session_id", session}, {"timeout_ms", 30000}}}}
                   .dump(),
               "r/read", "read");
  host.publish("mcpud/board-busy/rpc/req", R"({"jsonrpc":"2.0","id":2,"method":"get_info"})", "r/info", "info");
  auto busy = host.wait_for_topic("r/info");
  ASSERT_TRUE(busy);
  const auto refusal = json::parse(busy->payload);
  EXPECT_EQ(refusal["id"], 2);
  EXPECT_EQ(refusal["error"]["code"], -32040) << busy->payload;
  EXPECT_EQ(refusal["error"]["data"]["code"], "BUSY");

  ASSERT_TRUE(peer.write("hello"));  // the read completes and frees its slot
  auto read = host.wait_for_topic("r/read");
  ASSERT_TRUE(read);
  EXPECT_EQ(json::parse(read->payload)["result"]["data"], "hello");
  EXPECT_EQ(call(host, "board-busy", "get_info")["result"]["device"], "board-busy");
}

TEST_F(Fleet, DevicesReconnectAfterABrokerRestartAndPublishTheirInfoAgain) {
  auto& a = start_device("board-a");
  auto& b = start_device("board-b");
  broker_.stop();
  ASSERT_TRUE(a.wait_for_log("[fleet] lost"));
  ASSERT_TRUE(b.wait_for_log("[fleet] lost"));
  ASSERT_TRUE(broker_.start());  // same port, nothing retained (persistence off)
  ASSERT_TRUE(a.wait_for_log("connected to " + broker_.address() + " again"));
  ASSERT_TRUE(b.wait_for_log("connected to " + broker_.address() + " again"));

  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/+/info");
  EXPECT_TRUE(host.wait_for_topic("mcpud/board-a/info"));
  EXPECT_TRUE(host.wait_for_topic("mcpud/board-b/info"));
  EXPECT_EQ(call(host, "board-a", "get_info")["result"]["device"], "board-a");
  EXPECT_EQ(call(host, "board-b", "get_info")["result"]["device"], "board-b");
}

TEST_F(Fleet, ADeviceStartedBeforeItsBrokerConnectsWhenTheBrokerComes) {
  broker_.stop();  // the port stays reserved for the restart below
  auto& daemon = *devices_.emplace_back(std::make_unique<DaemonProcess>());
  const auto fleet = "\n[uplink.fleet]\nbroker = \"" + broker_.address() + "\"\nretry_max_ms = 200\n";
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.device = "early", .extra_pins = fleet}));
  ASSERT_GT(daemon.start_tcp({"--config", config}), 0);  // serves TCP while the broker is away
  ASSERT_TRUE(daemon.wait_for_log("[fleet] cannot connect to " + broker_.address()));
  ASSERT_TRUE(broker_.start());
  ASSERT_TRUE(daemon.wait_for_log("[fleet] connected to " + broker_.address() + " again"));
  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/early/info");
  EXPECT_TRUE(host.wait_for_topic("mcpud/early/info"));
  EXPECT_EQ(call(host, "early", "get_info")["result"]["device"], "early");
}

TEST_F(Fleet, KeepaliveNoticesABrokerThatStoppedAnsweringAndTheDeviceComesBack) {
  auto& device = start_device("pinger");  // keepalive_s = 5
  broker_.freeze();
  // No PINGRESP within the keepalive: the device gives the connection up.
  ASSERT_TRUE(device.wait_for_log("[fleet] lost " + broker_.address(), 30s)) << device.log();
  broker_.thaw();
  ASSERT_TRUE(device.wait_for_log("connected to " + broker_.address() + " again", 30s)) << device.log();
  MqttPeer host(broker_.port(), "host");
  // A request the broker takes before the device's new subscription reaches
  // nobody (a clean session, as MQTT has it): a host asks again.
  std::optional<json> info;
  for (int attempt = 0; attempt < 5 && !info; ++attempt)
    info = try_call(host, "pinger", "get_info", json::object(), "c1", 2s);
  ASSERT_TRUE(info) << "no reply from pinger to get_info after its reconnection\n" << device.log();
  EXPECT_EQ((*info)["result"]["device"], "pinger");
}

TEST_F(Fleet, TheBrokerSaysOfflineForADeviceKilledWithSigkillAndForACleanShutdown) {
  auto& doomed = start_device("doomed");
  auto& graceful = start_device("graceful");
  start_device("survivor");
  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/+/status");
  ASSERT_TRUE(
      host.wait_for([](const MqttMessage& m) { return m.topic == "mcpud/doomed/status" && m.payload == "online"; }));

  doomed.signal(SIGKILL);
  auto will =
      host.wait_for([](const MqttMessage& m) { return m.topic == "mcpud/doomed/status" && m.payload == "offline"; });
  ASSERT_TRUE(will);

  graceful.signal(SIGTERM);
  ASSERT_TRUE(graceful.wait_exit());
  EXPECT_TRUE(
      host.wait_for([](const MqttMessage& m) { return m.topic == "mcpud/graceful/status" && m.payload == "offline"; }));
  // A clean goodbye: "offline" acknowledged, then DISCONNECT (a DISCONNECT
  // ahead of the PUBACK can make mosquitto 2.0.11 log "out of memory" instead).
  EXPECT_TRUE(
      eventually([&] { return broker_.log().find("Client mcpud-graceful disconnected.") != std::string::npos; }, 10s))
      << broker_.log();

  // A late subscriber sees the retained states.
  MqttPeer late(broker_.port(), "late");
  late.subscribe("mcpud/+/status");
  EXPECT_EQ(late.wait_for_topic("mcpud/doomed/status")->payload, "offline");
  EXPECT_EQ(late.wait_for_topic("mcpud/graceful/status")->payload, "offline");
  EXPECT_EQ(late.wait_for_topic("mcpud/survivor/status")->payload, "online");
}

TEST_F(Fleet, PinChangesAndPinEventsArriveOnTheEventsTopics) {
  start_device("board-e");
  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/board-e/events/+");
  EXPECT_EQ(call(host, "board-e", "gpio_write", {{"pin", 2}, {"value", true}})["result"]["value"], true);
  auto changed = host.wait_for_topic("mcpud/board-e/events/led");
  ASSERT_TRUE(changed);
  const auto change = json::parse(changed->payload);
  EXPECT_EQ(change["kind"], "pin_changed");
  EXPECT_EQ(change["value"], true);
  // led_sense samples the led (loopback): its rising edge is a sampling event.
  auto edge = host.wait_for_topic("mcpud/board-e/events/led_sense");
  ASSERT_TRUE(edge);
  const auto event = json::parse(edge->payload);
  EXPECT_EQ(event["kind"], "pin_event");
  EXPECT_EQ(event["name"], "led_sense");
}

TEST_F(Fleet, SamplingSummariesArriveOnTheEventsTopicsWhenConfigured) {
  start_device("board-s", "summary_interval_s = 1\n");
  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/board-s/events/+");
  // "light" (ADC, sampled every 500 ms) keeps a summary.
  auto summary = host.wait_for([](const MqttMessage& m) {
    return m.topic == "mcpud/board-s/events/light" && json::parse(m.payload)["kind"] == "summary";
  });
  ASSERT_TRUE(summary);
  const auto s = json::parse(summary->payload);
  EXPECT_EQ(s["name"], "light");
  EXPECT_GT(s["samples"].get<int>(), 0);
  EXPECT_LE(s["min"].get<double>(), s["max"].get<double>());
}

TEST_F(Fleet, TheHostExampleFindsEveryDeviceAndCallsATool) {
  start_device("board-a");
  start_device("board-b");
  // The example lists devices from the retained status, so wait for both.
  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/+/status");
  ASSERT_TRUE(host.wait_for_topic("mcpud/board-a/status"));
  ASSERT_TRUE(host.wait_for_topic("mcpud/board-b/status"));

  DaemonProcess example;
  ASSERT_TRUE(example.start_program("/bin/bash", {MCPUD_FLEET_EXAMPLE, "-p", std::to_string(broker_.port()), "-W", "2",
                                                  "gpio_read", R"({"pin": 2})"}));
  ASSERT_EQ(example.wait_exit(30s), 0) << example.log();
  const auto out = example.stdout_text();
  for (const std::string name : {"board-a", "board-b"}) {
    const auto line_start = out.find(name + " ");
    ASSERT_NE(line_start, std::string::npos) << out;
    const auto line =
        out.substr(line_start + name.size() + 1, out.find('\n', line_start) - line_start - name.size() - 1);
    EXPECT_EQ(json::parse(line)["result"]["value"], false) << line;
  }
}

TEST_F(Fleet, InfoFollowsTheToolSetAndAReloadMayRenameTheDevice) {
  DaemonProcess daemon;
  const auto fleet = "[uplink.fleet]\nbroker = \"" + broker_.address() + "\"\nretry_max_ms = 200\n";
  const std::string led = "[[pins]]\nname = \"led\"\npin = 2\ntype = \"digital_output\"\n";
  const std::string sampled =
      "[[pins]]\nname = \"button\"\npin = 4\ntype = \"digital_input\"\n"
      "sim = { mode = \"square\", period_ms = 4000 }\nsampling = { interval_ms = 100 }\n";
  const auto config = daemon.write_file("mcpud.toml", "device = \"plain\"\nboard = \"sim\"\n" + led + fleet);
  ASSERT_GT(daemon.start_tcp({"--config", config}), 0);
  MqttPeer host(broker_.port(), "host");
  host.subscribe("mcpud/+/info");
  host.subscribe("mcpud/+/status");
  auto has_tool = [](const MqttMessage& m, const std::string& tool) {
    const auto document = json::parse(m.payload);
    for (const auto& t : document["tools"])
      if (t["name"] == tool) return true;
    return false;
  };
  auto first = host.wait_for_topic("mcpud/plain/info");
  ASSERT_TRUE(first);
  EXPECT_FALSE(has_tool(*first, "get_pin_summary"));

  // A sampled pin brings the sampling tools: the info is published again.
  daemon.write_file("mcpud.toml", "device = \"plain\"\nboard = \"sim\"\n" + led + sampled + fleet);
  daemon.signal(SIGHUP);
  EXPECT_TRUE(host.wait_for(
      [&](const MqttMessage& m) { return m.topic == "mcpud/plain/info" && has_tool(m, "get_pin_summary"); }));

  // A new device id: the old one says offline, the new one comes online.
  daemon.write_file("mcpud.toml",
                    "device = \"plain\"\nboard = \"sim\"\n" + led + sampled + fleet + "device = \"renamed\"\n");
  daemon.signal(SIGHUP);
  EXPECT_TRUE(
      host.wait_for([](const MqttMessage& m) { return m.topic == "mcpud/plain/status" && m.payload == "offline"; }));
  EXPECT_TRUE(
      host.wait_for([](const MqttMessage& m) { return m.topic == "mcpud/renamed/status" && m.payload == "online"; }));
  EXPECT_EQ(call(host, "renamed", "get_info")["result"]["device"], "plain");
}

TEST_F(Fleet, ConnectsWithAPasswordFileOverTls) {
  MosquittoBroker secure(BrokerOptions{"board", "pa55", true});
  ASSERT_TRUE(secure.start());
  DaemonProcess daemon;
  const auto secret = daemon.write_file("secret", "pa55\n");
  const auto fleet = "\n[uplink.fleet]\nbroker = \"" + secure.address() + "\"\nusername = \"board\"\n" +
                     "password_file = \"" + secret + "\"\ntls = true\nca_file = \"" + secure.ca_file() + "\"\n";
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.device = "secure", .extra_pins = fleet}));
  ASSERT_GT(daemon.start_tcp({"--config", config}), 0);
  EXPECT_TRUE(daemon.wait_for_log("[fleet] connected to " + secure.address())) << daemon.log();
  EXPECT_EQ(daemon.log().find("pa55"), std::string::npos);  // secrets are never logged
}

}  // namespace
}  // namespace mcpud::it
