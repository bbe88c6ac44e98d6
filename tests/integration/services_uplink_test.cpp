// SPDX-License-Identifier: MIT
// The ##START services uplink through the real mcpud: a test peer plays the AI
// server (AUTH, register, calls good and bad, pings, garbage, split frames,
// dropped connections, re-registration after a reload).
#include <csignal>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include <gtest/gtest.h>

#include "support/configs.hpp"
#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"
#include "support/serial_peer.hpp"
#include "support/start_peer.hpp"

namespace mcpud::it {
namespace {

using nlohmann::json;

constexpr std::uint8_t kAuth = 0x01, kEndFrame = 0x03, kText = 0x04, kStatus = 0x05, kMcp = 0x06;

std::string uplink_table(const StartPeer& peer, const std::string& extra = {}) {
  return "\n[uplink.services]\nserver = \"" + peer.address() +
         "\"\ntoken = \"secret-token\"\nvoice_id = \"v1\"\nlang = \"en\"\n" + extra;
}

// Every keyword of a reduced schema is one the server understands.
void expect_only_server_keywords(const json& schema, const std::string& where) {
  static const std::set<std::string> kAllowed{"type",      "required",  "enum",        "minimum",    "maximum",
                                              "minLength", "maxLength", "description", "properties", "items"};
  static const std::set<std::string> kTypes{"string", "number", "integer", "boolean", "array", "object"};
  ASSERT_TRUE(schema.is_object()) << where;
  for (const auto& [key, value] : schema.items()) {
    EXPECT_TRUE(kAllowed.contains(key)) << where << ": keyword " << key;
    if (key == "type") {
      EXPECT_TRUE(value.is_string() && kTypes.contains(value.get<std::string>())) << where << ": " << value;
    }
    if (key == "properties") {
      for (const auto& [name, property] : value.items()) expect_only_server_keywords(property, where + "." + name);
    }
    if (key == "items") expect_only_server_keywords(value, where + "[]");
  }
}

class ServicesUplink : public ::testing::Test {
 protected:
  // Starts mcpud with the sim board and [uplink.services] pointing at the peer,
  // then takes its connection and checks AUTH comes first and in time.
  void start(const std::string& extra = {}, SimConfig sim = {}) {
    config_path_ = daemon_.write_file("mcpud.toml", sim_config_toml(sim) + uplink_table(peer_, extra));
    ASSERT_TRUE(daemon_.start({"--config", config_path_}));
    ASSERT_TRUE(peer_.accept()) << daemon_.log();
    expect_auth();
    auto registered = peer_.next_frame();
    ASSERT_TRUE(registered) << daemon_.log();
    EXPECT_EQ(registered->type, kMcp);
    EXPECT_EQ(registered->task_id, "mcp00001");
    EXPECT_EQ(registered->seq, "0000");
    services_ = registered->json()["data"]["services"];
    ASSERT_TRUE(services_.is_object()) << registered->content;
  }

  void expect_auth() {
    const auto auth = peer_.next_frame(5s);  // the server's limit
    ASSERT_TRUE(auth) << daemon_.log();
    EXPECT_LT(std::chrono::steady_clock::now() - peer_.accepted_at(), 5s);
    EXPECT_EQ(auth->type, kAuth);
    EXPECT_EQ(auth->task_id, "00000000");
    EXPECT_EQ(auth->content, "secret-token##voiceid:v1##lang:en##format:pcm");
  }

  StartPeer peer_;
  DaemonProcess daemon_;
  std::string config_path_;
  json services_;
};

TEST_F(ServicesUplink, AuthenticatesThenRegistersEveryToolWithReducedSchemas) {
  start();
  for (const auto* name : {"gpio_write", "gpio_read", "pwm_write", "adc_read", "get_pin_summary", "get_info"}) {
    EXPECT_TRUE(services_.contains(name)) << name << " in " << services_.dump();
  }
  for (const auto& [name, service] : services_.items()) {
    EXPECT_TRUE(service["description"].is_string()) << name;
    EXPECT_EQ(service["parameters"]["type"], "object") << name;
    expect_only_server_keywords(service["parameters"], name);
  }
  const json& pwm = services_["pwm_write"]["parameters"];
  EXPECT_EQ(pwm["required"], json::array({"pin", "duty"}));
  EXPECT_EQ(pwm["properties"]["duty"],
            json({{"type", "integer"}, {"minimum", 0}, {"maximum", 255}, {"description", "0 = off, 255 = fully on"}}));
  // A sampled pin by number or by name: one property of one type each.
  EXPECT_EQ(services_["get_pin_summary"]["parameters"]["properties"]["pin"]["type"], "integer");
  EXPECT_EQ(services_["get_pin_summary"]["parameters"]["properties"]["name"]["type"], "string");
  // Defaults are not a keyword the server knows.
  EXPECT_FALSE(services_["get_pin_buffer"]["parameters"]["properties"]["since"].contains("default"));
  EXPECT_TRUE(daemon_.wait_for_log("registered " + std::to_string(services_.size()) + " services"));
}

TEST_F(ServicesUplink, CallsChangeAPinAndReadItBack) {
  start();
  const auto wrote = peer_.call("call_001", "gpio_write", {{"pin", 2}, {"value", true}});
  EXPECT_EQ(wrote["success"], true) << wrote;
  EXPECT_EQ(wrote["data"]["value"], true);
  const auto read = peer_.call("call_002", "gpio_read", {{"pin", 2}});
  EXPECT_EQ(read["success"], true) << read;
  EXPECT_EQ(read["data"]["name"], "led");
  EXPECT_EQ(read["data"]["value"], true);
  // The loopback input follows the LED, read by name.
  EXPECT_EQ(peer_.call("call_003", "gpio_write", {{"pin", 2}, {"value", false}})["success"], true);
  EXPECT_EQ(peer_.call("call_004", "gpio_read", {{"pin", 2}})["data"]["value"], false);
}

TEST_F(ServicesUplink, APinGivenAsNumericTextOrByNameIsFound) {
  start();
  EXPECT_EQ(peer_.call("s1", "get_pin_summary", {{"pin", "34"}})["data"]["name"], "light") << "\"34\" is pin 34";
  EXPECT_EQ(peer_.call("s2", "get_pin_summary", {{"name", "light"}})["data"]["pin"], 34);
  EXPECT_EQ(peer_.call("s3", "get_pin_summary", {{"pin", "light"}})["data"]["pin"], 34) << "the older form";
  EXPECT_EQ(peer_.call("s4", "get_pin_summary", {{"pin", 34}, {"name", "button"}})["success"], false)
      << "two different pins";
}

TEST_F(ServicesUplink, AResultGoesOutUnderItsCallsTaskIdAndSeq) {
  start();
  for (const auto& [task, seq, call_id] : {std::tuple{"task0042", "0007", "t1"}, {"zz000001", "0123", "t2"}}) {
    const json call = {{"type", "call"},
                       {"data", {{"call_id", call_id}, {"method", "gpio_read"}, {"params", {{"pin", 2}}}}}};
    ASSERT_TRUE(peer_.send_frame(0x06, task, seq, call.dump()));
    const auto result = peer_.wait_for_mcp("result");
    ASSERT_TRUE(result) << daemon_.log();
    EXPECT_EQ(result->json()["data"]["call_id"], call_id);
    EXPECT_EQ(result->task_id, task);
    EXPECT_EQ(result->seq, seq);
  }
}

TEST_F(ServicesUplink, CoalescedCallsAllGetTheirResults) {
  start();
  std::string burst;
  for (int i = 0; i < 20; ++i) {
    burst += "##START\x06mcp000010000" +
             json{{"type", "call"},
                  {"data", {{"call_id", "c" + std::to_string(i)}, {"method", "gpio_read"}, {"params", {{"pin", 3}}}}}}
                 .dump() +
             "##END";
  }
  ASSERT_TRUE(peer_.send_raw(burst));
  std::set<std::string> answered;
  while (answered.size() < 20) {
    const auto result = peer_.wait_for_mcp("result");
    ASSERT_TRUE(result) << daemon_.log();
    const auto data = result->json()["data"];
    EXPECT_EQ(data["result"]["success"], true) << result->content;
    answered.insert(data["call_id"].get<std::string>());
  }
}

TEST_F(ServicesUplink, BadCallsGetClearFailureResults) {
  start();
  const auto unknown = peer_.call("u1", "no_such_service", json::object());
  EXPECT_EQ(unknown["success"], false);
  EXPECT_EQ(unknown["error"], "Method not found: no_such_service");
  EXPECT_FALSE(unknown.contains("data"));
  // `reload` is a default user-only name: refused as hidden, not reported as missing.
  EXPECT_EQ(peer_.call("r1", "reload", json::object())["error"],
            "service 'reload' is not offered on this link (user-only tool)");

  const auto bad_params = peer_.call("b1", "gpio_write", {{"pin", "two"}, {"value", true}});
  EXPECT_EQ(bad_params["success"], false);
  EXPECT_EQ(bad_params["error"], "params.pin: expected integer, got string");

  const auto no_pin = peer_.call("b2", "gpio_read", {{"pin", 99}});
  EXPECT_EQ(no_pin["success"], false);
  EXPECT_TRUE(contains(no_pin["error"].get<std::string>(), "PIN_NOT_FOUND: ")) << no_pin;

  // No call_id: answered with a null call_id and the reason.
  ASSERT_TRUE(peer_.send_call({{"method", "gpio_read"}, {"params", {{"pin", 2}}}}));
  auto result = peer_.wait_for_mcp("result");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->json()["data"],
            json::parse(R"({"call_id": null, "result": {"success": false, "error": "data.call_id: missing"}})"));

  ASSERT_TRUE(peer_.send_call({{"call_id", "m1"}, {"params", json::object()}}));
  result = peer_.wait_for_mcp("result");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->json()["data"]["result"]["error"], "data.method: missing");

  ASSERT_TRUE(peer_.send_call({{"call_id", "p1"}, {"method", "gpio_read"}, {"params", "{\"pin\": 2"}}));
  result = peer_.wait_for_mcp("result");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->json()["data"]["call_id"], "p1");
  EXPECT_EQ(result->json()["data"]["result"]["error"], "data.params: not valid JSON text");

  ASSERT_TRUE(peer_.send_call({{"call_id", "p2"}, {"method", "gpio_read"}, {"params", json::array({2})}}));
  result = peer_.wait_for_mcp("result");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->json()["data"]["result"]["error"], "data.params: expected object, got array");

  ASSERT_TRUE(peer_.send_frame(kMcp, "mcp00001", "0000", "{not json"));
  result = peer_.wait_for_mcp("result");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->json()["data"]["result"]["error"], "message is not a JSON object");

  // Params given as JSON text are accepted too; the link is still good.
  EXPECT_EQ(peer_.call("ok", "gpio_read", "{\"pin\": 2}")["success"], true);
  EXPECT_TRUE(daemon_.running());
}

TEST_F(ServicesUplink, SkipsGarbageAndDecodesAFrameSentByteByByte) {
  start();
  ASSERT_TRUE(peer_.send_raw("hello\r\n#"));
  const std::string frame =
      "##START\x06mcp000010000" +
      json{{"type", "call"}, {"data", {{"call_id", "split"}, {"method", "gpio_read"}, {"params", {{"pin", 2}}}}}}
          .dump() +
      "##END";
  for (const char c : frame) ASSERT_TRUE(peer_.send_raw(std::string(1, c)));
  const auto result = peer_.wait_for_mcp("result");
  ASSERT_TRUE(result) << daemon_.log();
  EXPECT_EQ(result->json()["data"]["call_id"], "split");
  EXPECT_EQ(result->json()["data"]["result"]["success"], true);
  EXPECT_TRUE(daemon_.wait_for_log("skipped 8 bytes that are not a frame")) << daemon_.log();
  // A frame with a bad type byte is refused and the next one still served.
  ASSERT_TRUE(
      peer_.send_raw("##START\x0f"
                     "mcp000010000{}##END"));
  EXPECT_EQ(peer_.call("after", "gpio_read", {{"pin", 2}})["success"], true);
  EXPECT_TRUE(daemon_.wait_for_log("bad frame type byte 0x0f")) << daemon_.log();
}

TEST_F(ServicesUplink, SurvivesNoiseAndDropsAnOverLongFrame) {
  start("max_frame_bytes = 4096\n");
  std::minstd_rand random(7);
  std::string noise;
  for (int i = 0; i < 200'000; ++i) noise += static_cast<char>(random() & 0xff);
  for (int i = 0; i < 50; ++i) noise.insert(random() % noise.size(), i % 2 ? "##START" : "##END");
  ASSERT_TRUE(peer_.send_raw(noise));
  // Far over the bound: dropped as it streams past, never held whole.
  ASSERT_TRUE(peer_.send_raw("##START\x06mcp000010000" + std::string(1 << 20, 'x') + "##END"));
  EXPECT_EQ(peer_.call("after", "gpio_read", {{"pin", 2}})["success"], true) << daemon_.log();
  EXPECT_TRUE(daemon_.wait_for_log("dropped a frame longer than 4096 bytes")) << daemon_.log();
  EXPECT_TRUE(daemon_.running());
}

// Serial reads wait for bytes: slow calls that show concurrency and the bound.
TEST_F(ServicesUplink, SlowCallsRunConcurrentlyWithinTheBound) {
  const auto dir = daemon_.temp_dir().path();
  SerialPeer port_a(dir / "ttyA");
  SerialPeer port_b(dir / "ttyB");
  start("max_calls_in_flight = 2\n", {.extra_pins = "\n[serial]\nallowed_ports = [\"" + dir.string() + "/tty*\"]\n"});
  const auto session_a = peer_.call("a", "serial_connect", {{"port", port_a.link()}})["data"]["session_id"];
  const auto session_b = peer_.call("b", "serial_connect", {{"port", port_b.link()}})["data"]["session_id"];
  ASSERT_TRUE(session_a.is_string() && session_b.is_string()) << daemon_.log();

  ASSERT_TRUE(peer_.send_call({{"call_id", "slow1"},
                               {"method", "serial_read"},
                               {"params", {{"session_id", session_a}, {"timeout_ms", 30000}}}}));
  // A quick call is answered while the slow one waits.
  ASSERT_TRUE(peer_.send_call({{"call_id", "fast1"}, {"method", "gpio_read"}, {"params", {{"pin", 2}}}}));
  auto next = peer_.wait_for_mcp("result");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->json()["data"]["call_id"], "fast1");

  ASSERT_TRUE(peer_.send_call({{"call_id", "slow2"},
                               {"method", "serial_read"},
                               {"params", {{"session_id", session_b}, {"timeout_ms", 30000}}}}));
  // Over the bound a call is not refused: it waits for a free slot, after slow1.
  ASSERT_TRUE(peer_.send_call({{"call_id", "fast2"}, {"method", "gpio_read"}, {"params", {{"pin", 2}}}}));
  ASSERT_TRUE(port_a.write("a1"));
  next = peer_.wait_for_mcp("result");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->json()["data"]["call_id"], "slow1");
  EXPECT_EQ(next->json()["data"]["result"]["data"]["data"], "a1");
  next = peer_.wait_for_mcp("result");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->json()["data"]["call_id"], "fast2");
  EXPECT_EQ(next->json()["data"]["result"]["success"], true) << next->content;
  ASSERT_TRUE(port_b.write("b2"));
  next = peer_.wait_for_mcp("result");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->json()["data"]["call_id"], "slow2");
  EXPECT_EQ(peer_.call("fast3", "gpio_read", {{"pin", 2}})["success"], true);
}

// A server that sends calls but stops reading the results is disconnected once
// queue_bytes wait (beyond what the kernel holds), and redialed.
TEST_F(ServicesUplink, AServerThatStopsReadingIsDroppedAndRedialed) {
  peer_.shrink_receive_buffer();
  start("queue_bytes = 65536\n");
  std::string calls;
  for (int i = 0; i < 60'000; ++i) {
    calls +=
        "##START\x06mcp000010000" +
        json{{"type", "call"}, {"data", {{"call_id", i}, {"method", "gpio_read"}, {"params", {{"pin", 2}}}}}}.dump() +
        "##END";
  }
  peer_.send_raw(calls);  // blocks while the daemon pauses reading; fails once it hangs up
  EXPECT_TRUE(daemon_.wait_for_log("the server reads too slowly", 60s)) << daemon_.log();
  ASSERT_TRUE(peer_.accept(15s)) << daemon_.log();
  expect_auth();
  EXPECT_TRUE(peer_.wait_for_mcp("register"));
}

// A burst whose results are many times queue_bytes, from a server that reads
// every result (slowly: a tiny receive buffer) while it sends: the daemon
// pauses reading instead of hanging up, and every call gets its result.
TEST_F(ServicesUplink, ABurstFarBeyondTheQueueBoundIsServedInFull) {
  peer_.shrink_receive_buffer();
  start("queue_bytes = 65536\nmax_calls_in_flight = 1\n");
  constexpr std::size_t kCalls = 30'000;  // about 4 MB of results
  std::string calls;
  for (std::size_t i = 0; i < kCalls; ++i) {
    calls += "##START\x06mcp000010000" +
             json{{"type", "call"},
                  {"data", {{"call_id", "b" + std::to_string(i)}, {"method", "gpio_read"}, {"params", {{"pin", 2}}}}}}
                 .dump() +
             "##END";
  }
  bool sent = false;
  std::thread sender([&] { sent = peer_.send_raw(calls); });
  std::set<std::string> answered;
  std::size_t results = 0, failures = 0;
  std::string first_failure;
  while (results < kCalls) {
    const auto result = peer_.wait_for_mcp("result", 30s);
    if (!result) break;
    ++results;
    const auto data = result->json()["data"];
    if (data["result"]["success"] != true && failures++ == 0) first_failure = result->content;
    answered.insert(data["call_id"].get<std::string>());
  }
  sender.join();
  EXPECT_TRUE(sent);
  EXPECT_EQ(results, kCalls) << daemon_.log();
  EXPECT_EQ(answered.size(), kCalls);  // each call once
  EXPECT_TRUE(answered.contains("b0") && answered.contains("b" + std::to_string(kCalls - 1)));
  EXPECT_EQ(failures, 0u) << first_failure;
  EXPECT_EQ(daemon_.log().find("reads too slowly"), std::string::npos) << daemon_.log();
  EXPECT_EQ(peer_.call("after", "gpio_read", {{"pin", 2}})["success"], true);  // the same connection
}

TEST_F(ServicesUplink, AnswersPingsAndPingsOnItsOwn) {
  start("ping_interval_s = 5\n");
  ASSERT_TRUE(peer_.send_frame(kStatus, "00000000", "0000", "##PING"));
  const auto pong = peer_.wait_for([](const PeerFrame& f) { return f.type == kStatus; });
  ASSERT_TRUE(pong) << daemon_.log();
  EXPECT_EQ(pong->content, "##INFO:PONG");
  EXPECT_EQ(pong->task_id, "00000000");
  // With nothing else to say, the daemon pings within its interval.
  const auto ping = peer_.wait_for([](const PeerFrame& f) { return f.type == kStatus; }, 15s);
  ASSERT_TRUE(ping) << daemon_.log();
  EXPECT_EQ(ping->content, "##PING");
  EXPECT_EQ(ping->task_id, "00000000");
}

TEST_F(ServicesUplink, ReconnectsAndRegistersAgainWhenTheServerDrops) {
  start();
  peer_.drop();
  ASSERT_TRUE(peer_.accept(15s)) << daemon_.log();
  expect_auth();
  const auto again = peer_.wait_for_mcp("register");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->json()["data"]["services"], services_);
  EXPECT_EQ(peer_.call("c1", "gpio_read", {{"pin", 2}})["success"], true);
  // ##DISCONNECT: the daemon closes and comes back.
  ASSERT_TRUE(peer_.send_frame(kStatus, "00000000", "0000", "##DISCONNECT"));
  EXPECT_TRUE(peer_.wait_closed());
  ASSERT_TRUE(peer_.accept(15s)) << daemon_.log();
  expect_auth();
  EXPECT_TRUE(peer_.wait_for_mcp("register"));
  EXPECT_TRUE(daemon_.wait_for_log("the server sent ##DISCONNECT; reconnecting")) << daemon_.log();
}

// The commented [uplink.services] example of the shipped mcpud.toml is valid
// once uncommented (with a token file that exists).
TEST(ServicesUplinkExample, TheShippedExampleWorksOnceUncommented) {
  DaemonProcess daemon;
  const auto token = daemon.write_file("services.token", "a-token\n");
  std::ifstream in(MCPUD_SHIPPED_CONFIG);
  std::ostringstream edited;
  static const std::regex kExample(R"(^# (\[uplink\.services\]|[a-z_]+ = .*)$)");
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    in_table = in_table || line == "# [uplink.services]";
    if (in_table && std::regex_match(line, kExample)) line = line.substr(2);
    if (line.starts_with("token_file = ")) line = "token_file = \"" + token + "\"";
    edited << line << "\n";
  }
  ASSERT_TRUE(in_table) << "no [uplink.services] example in " << MCPUD_SHIPPED_CONFIG;
  const auto path = daemon.write_file("mcpud.toml", edited.str());
  ASSERT_TRUE(daemon.start({"--check-config", path}));
  EXPECT_EQ(daemon.wait_exit(10s), 0) << daemon.log() << edited.str();
  const json resolved = json::parse(daemon.stdout_text(), nullptr, false);
  EXPECT_EQ(resolved["uplink"]["services"]["server"], "ai.example.com:8443") << daemon.stdout_text();
  EXPECT_EQ(resolved["uplink"]["services"]["ping_interval_s"], 120);
}

TEST(ServicesUplinkDialing, KeepsDialingUntilTheServerIsThereAndLogsTheFailureOnce) {
  StartPeer peer(std::nullopt, false);  // bound, refusing connections
  DaemonProcess daemon;
  const auto path = daemon.write_file("mcpud.toml", sim_config_toml() + uplink_table(peer));
  ASSERT_TRUE(daemon.start({"--config", path, "--log-level", "debug"}));
  ASSERT_TRUE(daemon.wait_for_log(peer.address() + ": Connection refused; reconnecting")) << daemon.log();
  // Two more attempts, logged at debug as repeats.
  ASSERT_TRUE(daemon.wait_for_log(peer.address() + ": Connection refused; retrying", 20s, 2)) << daemon.log();
  peer.listen();
  ASSERT_TRUE(peer.accept(20s)) << daemon.log();
  EXPECT_TRUE(peer.wait_for_mcp("register"));
  EXPECT_TRUE(daemon.wait_for_log("connected to " + peer.address()));
  EXPECT_EQ(daemon.count_in_log("Connection refused; reconnecting"), 1u) << daemon.log();
}

TEST_F(ServicesUplink, AReloadThatChangesTheTableRedials) {
  start();
  daemon_.write_file("mcpud.toml", sim_config_toml() + uplink_table(peer_, "ping_interval_s = 60\n"));
  daemon_.signal(SIGHUP);
  EXPECT_TRUE(peer_.wait_closed()) << daemon_.log();
  ASSERT_TRUE(peer_.accept()) << daemon_.log();
  expect_auth();
  EXPECT_TRUE(peer_.wait_for_mcp("register"));
}

// A board without sampled pins has no sampling tools; a reload that adds one
// brings them, and the server hears one new register.
TEST_F(ServicesUplink, ReRegistersOnceAfterAReloadThatAddsAPin) {
  const std::string led =
      "device = \"d\"\nboard = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n\n[[pins]]\nname = \"led\"\npin = 2\ntype = "
      "\"digital_output\"\n";
  config_path_ = daemon_.write_file("mcpud.toml", led + uplink_table(peer_));
  ASSERT_TRUE(daemon_.start({"--config", config_path_}));
  ASSERT_TRUE(peer_.accept()) << daemon_.log();
  expect_auth();
  const auto first = peer_.wait_for_mcp("register");
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->json()["data"]["services"].contains("get_pin_summary"));

  daemon_.write_file("mcpud.toml", led +
                                       "\n[[pins]]\nname = \"button\"\npin = 4\ntype = \"digital_input\"\n"
                                       "sampling = { interval_ms = 100, buffer_size = 5 }\n" +
                                       uplink_table(peer_));
  daemon_.signal(SIGHUP);
  const auto second = peer_.wait_for_mcp("register");
  ASSERT_TRUE(second) << daemon_.log();
  const auto services = second->json()["data"]["services"];
  EXPECT_TRUE(services.contains("get_pin_summary"));
  EXPECT_TRUE(services.contains("gpio_write"));
  // The link stayed up (same connection) and only one register was sent.
  ASSERT_TRUE(peer_.send_frame(kStatus, "00000000", "0000", "##PING"));
  const auto next = peer_.next_frame();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->content, "##INFO:PONG");
  EXPECT_EQ(peer_.call("s", "get_pin_summary", {{"pin", "button"}})["success"], true);
}

TEST_F(ServicesUplink, UserOnlyToolsAreNotOffered) {
  start("", {});
  EXPECT_TRUE(services_.contains("adc_read"));
  peer_.drop();
  DaemonProcess other;
  StartPeer peer;
  const auto path = other.write_file(
      "mcpud.toml", sim_config_toml() + "\n[mcp]\nuser_only_tools = [\"adc_*\"]\n" + uplink_table(peer));
  ASSERT_TRUE(other.start({"--config", path}));
  ASSERT_TRUE(peer.accept()) << other.log();
  const auto registered = peer.wait_for_mcp("register");
  ASSERT_TRUE(registered);
  EXPECT_FALSE(registered->json()["data"]["services"].contains("adc_read"));
  EXPECT_TRUE(registered->json()["data"]["services"].contains("gpio_read"));
  const auto refused = peer.call("x", "adc_read", {{"pin", 34}});
  EXPECT_EQ(refused["success"], false);
  EXPECT_EQ(refused["error"], "service 'adc_read' is not offered on this link (user-only tool)");
  // A reload that un-hides it registers it, on the same connection.
  other.write_file("mcpud.toml", sim_config_toml() + "\n[mcp]\nuser_only_tools = []\n" + uplink_table(peer));
  other.signal(SIGHUP);
  const auto again = peer.wait_for_mcp("register");
  ASSERT_TRUE(again) << other.log();
  EXPECT_TRUE(again->json()["data"]["services"].contains("adc_read"));
  EXPECT_EQ(peer.call("y", "adc_read", {{"pin", 34}})["success"], true);
}

TEST_F(ServicesUplink, TextForAnUnknownTaskAndOtherFramesAreIgnored) {
  start();
  ASSERT_TRUE(peer_.send_frame(kText, "zzzz0000", "0000", "nobody asked"));
  ASSERT_TRUE(peer_.send_frame(kEndFrame, "zzzz0000", "0001", ""));
  ASSERT_TRUE(peer_.send_frame(0x02, "zzzz0000", "0000", "\x01\x02 audio"));
  EXPECT_EQ(peer_.call("c", "gpio_read", {{"pin", 2}})["success"], true);
}

TEST_F(ServicesUplink, BadConfigurationIsRefusedWithTheKeyPath) {
  const auto path = daemon_.write_file("mcpud.toml", "[uplink.services]\nserver = \"no-port\"\n");
  ASSERT_TRUE(daemon_.start({"--config", path}));
  EXPECT_EQ(daemon_.wait_exit(), 1);
  EXPECT_TRUE(
      contains(daemon_.log(), "uplink.services.server: expected host:port, e.g. ai.example.com:8085, got 'no-port'"))
      << daemon_.log();
}

}  // namespace
}  // namespace mcpud::it
