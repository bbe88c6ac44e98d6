// SPDX-License-Identifier: MIT
// The limits a human sets on outputs, through the real binary: an output goes
// back to safe when its client disconnects, pulses, leases and max_on end by
// themselves, and min_off, rate, range and both interlocks are refused as
// docs/safety.md says; a SIGHUP that tightens a limit applies to an output
// already on.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <regex>
#include <thread>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it::output_limits {

const std::string kLimitedPins = R"(
[[pins]]
name = "heater"
pin = 10
type = "digital_output"
safe_value = false
max_on_ms = 300

[[pins]]
name = "compressor"
pin = 11
type = "digital_output"
safe_value = false
min_off_ms = 60000

[[pins]]
name = "tap"
pin = 12
type = "digital_output"
safe_value = false
lease_ms = 300

[[pins]]
name = "dimmer"
pin = 13
type = "pwm_output"
safe_duty = 0
min_duty = 40
max_duty = 200
max_writes_per_s = 2

[[pins]]
name = "valve"
pin = 14
type = "digital_output"
safe_value = false

[[pins]]
name = "pump"
pin = 15
type = "digital_output"
safe_value = false
requires = "valve"

[[pins]]
name = "relay_a"
pin = 16
type = "digital_output"
safe_value = false
exclusive_with = ["relay_b"]

[[pins]]
name = "relay_b"
pin = 17
type = "digital_output"
safe_value = false
)";

// A boiler that is on from start-up, whose max_on_ms a reload changes.
std::string boiler_config(int max_on_ms) {
  return sim_config_toml({.extra_pins = R"(
[[pins]]
name = "boiler"
pin = 20
type = "digital_output"
initial = true
safe_value = false
on_release = "hold"
max_on_ms = )" + std::to_string(max_on_ms) +
                                        "\n"});
}

class OutputLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto config = daemon_.write_file("mcpud.toml", sim_config_toml({.extra_pins = kLimitedPins}));
    port_ = daemon_.start_tcp({"--config", config});
    ASSERT_NE(port_, 0);
    client_ = LineClient::connect_tcp(port_);
    ASSERT_TRUE(client_);
  }

  LineClient& client() { return *client_; }
  json write(const std::string& name, bool value, json more = json::object()) {
    more["pin"] = pin_number(name);
    more["value"] = value;
    return client().call("gpio_write", more);
  }
  std::optional<bool> read(LineClient& who, const std::string& name) {
    const auto reply = who.call("gpio_read", {{"pin", pin_number(name)}});
    if (!reply.contains("result")) return std::nullopt;
    return reply["result"]["value"].get<bool>();
  }
  bool becomes(const std::string& name, bool value, Deadline deadline = 5s) {
    return eventually([&] { return read(client(), name) == value; }, deadline, 10ms);
  }
  int pin_number(const std::string& name) {
    const json listing = client().result("list_tools");
    for (const auto& pin : listing["pins"]) {
      if (pin["name"] == name) return pin["pin"].get<int>();
    }
    return -1;
  }

  DaemonProcess daemon_;
  int port_ = 0;
  std::optional<LineClient> client_;
};

TEST_F(OutputLimits, AnOutputGoesBackToSafeWhenTheClientThatSetItDisconnects) {
  auto agent = LineClient::connect_tcp(port_);
  ASSERT_TRUE(agent);
  ASSERT_TRUE(agent->call("gpio_write", {{"pin", 2}, {"value", true}}).contains("result"));
  EXPECT_EQ(read(client(), "led"), true) << "another client sees it on while its driver is connected";
  agent->close();
  EXPECT_TRUE(becomes("led", false)) << "the led (on_release = \"safe\" by default) stayed on";
}

TEST_F(OutputLimits, AnOutputWithoutASafeValueHoldsWhenItsClientGoes) {
  daemon_.write_file("mcpud.toml", sim_config_toml({.extra_pins = kLimitedPins + R"(
[[pins]]
name = "plain"
pin = 21
type = "digital_output"
)"}));
  daemon_.signal(SIGHUP);
  ASSERT_TRUE(daemon_.wait_for_log("reloaded: 14 pins"));
  auto agent = LineClient::connect_tcp(port_);
  ASSERT_TRUE(agent);
  ASSERT_TRUE(agent->call("gpio_write", {{"pin", 21}, {"value", true}}).contains("result"));
  ASSERT_TRUE(agent->call("gpio_write", {{"pin", 2}, {"value", true}}).contains("result"));
  agent->close();
  ASSERT_TRUE(becomes("led", false)) << "the departure was handled";
  EXPECT_EQ(read(client(), "plain"), true);
}

TEST_F(OutputLimits, MaxOnEndsAnOutputAndTheReplySaysWhen) {
  const auto reply = write("heater", true);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["revert_reason"], "max_on");
  EXPECT_EQ(reply["result"]["reverts_after_ms"], 300);
  EXPECT_TRUE(becomes("heater", false));
}

TEST_F(OutputLimits, MinOffRefusesASecondStartWithARetryHint) {
  ASSERT_TRUE(write("compressor", true).contains("result"));
  ASSERT_TRUE(write("compressor", false).contains("result"));
  const auto again = write("compressor", true);
  ASSERT_TRUE(is_error(again, -32007, "MIN_OFF_TIME")) << again.dump();
  const auto retry = again["error"]["data"]["retry_after_ms"].get<int>();
  EXPECT_GT(retry, 50000);
  EXPECT_LE(retry, 60000);
  EXPECT_EQ(read(client(), "compressor"), false);
}

TEST_F(OutputLimits, HoldMsEndsAPulse) {
  const auto reply = write("led", true, {{"hold_ms", 200}});
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["revert_reason"], "hold");
  EXPECT_TRUE(becomes("led", false));
}

TEST_F(OutputLimits, ALeaseEndsWhileTheClientStaysConnected) {
  const auto reply = write("tap", true);
  ASSERT_TRUE(reply.contains("result")) << reply.dump();
  EXPECT_EQ(reply["result"]["revert_reason"], "lease");
  EXPECT_TRUE(becomes("tap", false));
}

TEST_F(OutputLimits, DutyOutsideTheRangeIsRefusedNotClamped) {
  const auto reply = client().call("pwm_write", {{"pin", 13}, {"duty", 201}});
  ASSERT_TRUE(is_error(reply, -32005, "OUT_OF_RANGE")) << reply.dump();
  EXPECT_TRUE(contains(reply["error"]["message"], "40-200"));
  EXPECT_TRUE(client().call("pwm_write", {{"pin", 13}, {"duty", 0}}).contains("result")) << "safe is always allowed";
}

TEST_F(OutputLimits, WritesBeyondTheRateAreRefusedWithRetryAfter) {
  json refused;
  for (int duty = 50; duty < 60 && refused.is_null(); ++duty) {
    const auto reply = client().call("pwm_write", {{"pin", 13}, {"duty", duty}});
    if (reply.contains("error")) refused = reply;
  }
  ASSERT_TRUE(is_error(refused, -32004, "RATE_LIMITED")) << refused.dump();
  const auto retry = refused["error"]["data"]["retry_after_ms"].get<int>();
  EXPECT_GT(retry, 0);
  EXPECT_LE(retry, 1000);
}

TEST_F(OutputLimits, ExclusiveOutputsAreNeverOnTogether) {
  ASSERT_TRUE(write("relay_a", true).contains("result"));
  const auto reply = write("relay_b", true);
  ASSERT_TRUE(is_error(reply, -32006, "INTERLOCK")) << reply.dump();
  EXPECT_TRUE(contains(reply["error"]["message"], "relay_a"));
  EXPECT_EQ(read(client(), "relay_b"), false);
}

TEST_F(OutputLimits, APumpRunsOnlyWhileItsValveIsOpenAndStopsWithIt) {
  const auto refused = write("pump", true);
  ASSERT_TRUE(is_error(refused, -32006, "INTERLOCK")) << refused.dump();
  EXPECT_TRUE(contains(refused["error"]["message"], "valve"));
  ASSERT_TRUE(write("valve", true).contains("result"));
  ASSERT_TRUE(write("pump", true).contains("result"));
  ASSERT_TRUE(write("valve", false).contains("result"));
  EXPECT_EQ(read(client(), "pump"), false) << "the pump follows its valve back to safe";
}

TEST_F(OutputLimits, ADryRunAnswersWhatWouldHappenAndChangesNothing) {
  const auto dry = write("heater", true, {{"dry_run", true}});
  ASSERT_TRUE(dry.contains("result")) << dry.dump();
  EXPECT_EQ(dry["result"]["dry_run"], true);
  EXPECT_EQ(dry["result"]["revert_reason"], "max_on");
  EXPECT_EQ(read(client(), "heater"), false);
  ASSERT_TRUE(write("relay_a", true).contains("result"));
  EXPECT_TRUE(is_error(write("relay_b", true, {{"dry_run", true}}), -32006, "INTERLOCK"));
}

TEST_F(OutputLimits, AgentsSeeTheLimitsInTheToolListAndPinRegistry) {
  const json listing = client().result("list_tools");
  std::string description;
  for (const auto& tool : listing["tools"]) {
    if (tool["name"] == "gpio_write") description = tool["description"];
  }
  EXPECT_TRUE(contains(description, "heater: back to false when its client goes, max 300 ms on"));
  EXPECT_TRUE(contains(description, "pump: back to false when its client goes, only while valve is on"));
  json heater;
  for (const auto& pin : listing["pins"]) {
    if (pin["name"] == "heater") heater = pin;
  }
  EXPECT_EQ(heater["limits"]["max_on_ms"], 300);
  EXPECT_EQ(heater["limits"]["on_release"], "safe");
}

TEST(OutputLimitsReload, ASighupThatTightensMaxOnAppliesToAnOutputAlreadyOn) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", boiler_config(600000));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  const auto boiler = [&] {
    const json listing = client->result("list_tools");
    for (const auto& pin : listing["pins"]) {
      if (pin["name"] == "boiler") return pin["limits"];
    }
    return json();
  };
  const json before = boiler();
  ASSERT_TRUE(before.contains("on_since_ms")) << before.dump();

  daemon.write_file("mcpud.toml", boiler_config(300000));
  daemon.signal(SIGHUP);
  ASSERT_TRUE(daemon.wait_for_log("reloaded: 6 pins"));
  const json after = boiler();
  EXPECT_EQ(after["max_on_ms"], 300000);
  EXPECT_EQ(after["on_since_ms"], before["on_since_ms"]) << "the time on was kept";
  EXPECT_EQ(after["reverts_at_ms"], before["on_since_ms"].get<std::int64_t>() + 300000)
      << "the tighter limit counts from when the boiler went on";

  daemon.write_file("mcpud.toml", boiler_config(1));
  daemon.signal(SIGHUP);
  ASSERT_TRUE(daemon.wait_for_log("reloaded: 6 pins", 10s, 2));
  EXPECT_TRUE(eventually([&] { return client->result("gpio_read", {{"pin", 20}})["value"] == false; }, 5s, 10ms));
}

// Limited outputs and nothing sampled: a timer of the guard is the only thing that could wake it.
constexpr const char* kQuietLimits = R"(board = "sim"
listen = ["127.0.0.1:0"]
[[pins]]
name = "heater"
pin = 10
type = "digital_output"
safe_value = false
max_on_ms = 200
[[pins]]
name = "tap"
pin = 12
type = "digital_output"
safe_value = false
lease_ms = 60000
)";

TEST(OutputLimitsIdle, NothingWakesTheDaemonWhileEveryOutputIsAtItsSafeValue) {
  DaemonProcess daemon;
  const int port = daemon.start_tcp({"--config", daemon.write_file("mcpud.toml", kQuietLimits)});
  ASSERT_NE(port, 0);
  {
    auto client = LineClient::connect_tcp(port);
    ASSERT_TRUE(client);
    ASSERT_TRUE(client->call("gpio_write", {{"pin", 10}, {"value", true}}).contains("result"));
    ASSERT_TRUE(client->call("gpio_write", {{"pin", 12}, {"value", true}}).contains("result"));
    ASSERT_TRUE(eventually([&] { return client->result("gpio_read", {{"pin", 10}})["value"] == false; }, 5s, 10ms));
    ASSERT_TRUE(client->call("gpio_write", {{"pin", 12}, {"value", false}}).contains("result"));
  }
  // Measured, not waited for: the lease's and max_on's timers were cancelled and none
  // is armed; the first 2 s let the heap trimmer's one quiet-time wake-up pass.
  std::this_thread::sleep_for(2s);
  const long switches = daemon.status_field("voluntary_ctxt_switches");
  std::this_thread::sleep_for(3s);
  EXPECT_EQ(daemon.status_field("voluntary_ctxt_switches"), switches) << "the idle daemon woke up";
}

// One HTTP/1.1 request on a connection of its own, and everything the server answers until it closes.
// `headers`: more header lines, each ending in CRLF.
std::string http_exchange(int port, const std::string& method, const std::string& session, const std::string& body,
                          const std::string& headers = "") {
  auto client = LineClient::connect_tcp(port);
  if (!client) return "";
  std::string request = method +
                        " /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        "Accept: application/json, text/event-stream\r\nConnection: close\r\n" +
                        headers;
  if (!session.empty()) request += "Mcp-Session-Id: " + session + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  if (!client->send_raw(request)) return "";
  std::string response;
  pollfd readable{client->fd(), POLLIN, 0};
  const Deadline deadline = 5s;
  while (::poll(&readable, 1, deadline.poll_ms()) > 0) {
    char buffer[4096];
    const auto got = ::read(client->fd(), buffer, sizeof buffer);
    if (got <= 0) break;
    response.append(buffer, static_cast<std::size_t>(got));
  }
  return response;
}

TEST(OutputLimitsHttp, AnOutputGoesBackToSafeWhenItsMcpHttpSessionEnds) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml() + "\n[http]\nlisten = \"127.0.0.1:0\"\n");
  const int tcp_port = daemon.start_tcp({"--config", config});
  ASSERT_NE(tcp_port, 0);
  const auto http = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  ASSERT_TRUE(http);
  const int port = std::stoi(http->at(1));
  std::smatch id;
  const auto opened = http_exchange(port, "POST", "", kInitialize);
  ASSERT_TRUE(std::regex_search(opened, id, std::regex("\r\nMcp-Session-Id: ([^\r]*)\r\n", std::regex::icase)))
      << opened;
  const std::string session = id[1];
  const auto written = http_exchange(
      port, "POST", session,
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gpio_write","arguments":{"pin":2,"value":true}}})");
  ASSERT_TRUE(contains(written, "HTTP/1.1 200")) << written;
  auto observer = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(observer);
  EXPECT_EQ(observer->result("gpio_read", {{"pin", 2}})["value"], true);

  ASSERT_TRUE(contains(http_exchange(port, "DELETE", session, ""), "HTTP/1.1 200"));
  EXPECT_TRUE(eventually([&] { return observer->result("gpio_read", {{"pin", 2}})["value"] == false; }, 5s, 10ms));
}

// A stateless request (MCP 2026-07-28, no session) ends with its answer, which
// says nothing of its client: its write is leased, never released at once nor
// held like a person's.
TEST(OutputLimitsHttp, AStatelessRequestsWriteHoldsForALease) {
  DaemonProcess daemon;
  const auto config = daemon.write_file(
      "mcpud.toml", sim_config_toml({.extra_pins = kLimitedPins}) + "\n[http]\nlisten = \"127.0.0.1:0\"\n");
  const int tcp_port = daemon.start_tcp({"--config", config});
  ASSERT_NE(tcp_port, 0);
  const auto http = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  ASSERT_TRUE(http);
  const int port = std::stoi(http->at(1));
  const auto stateless_write = [&](int pin) {
    const std::string body = R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"gpio_write",)"
                             R"("arguments":{"pin":)" +
                             std::to_string(pin) +
                             R"(,"value":true},"_meta":{)"
                             R"("io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                             R"("io.modelcontextprotocol/clientCapabilities":{}}}})";
    const auto answer = http_exchange(port, "POST", "", body,
                                      "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
                                      "Mcp-Name: gpio_write\r\n");
    const auto start = answer.find("{\"");
    return start == std::string::npos ? json() : json::parse(answer.substr(start), nullptr, false);
  };
  const json led = stateless_write(2);  // on_release = "safe", no lease_ms: a minute
  ASSERT_TRUE(led.contains("result")) << led.dump();
  EXPECT_EQ(led["result"]["structuredContent"]["revert_reason"], "lease") << led.dump();
  EXPECT_EQ(led["result"]["structuredContent"]["reverts_after_ms"], 60000) << led.dump();
  auto observer = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(observer);
  observer->result("list_tools");  // a few turns of the loop after the request ended
  EXPECT_EQ(observer->result("gpio_read", {{"pin", 2}})["value"], true) << "released with its request";

  const json tap = stateless_write(12);  // lease_ms = 300
  ASSERT_TRUE(tap.contains("result")) << tap.dump();
  EXPECT_EQ(tap["result"]["structuredContent"]["reverts_after_ms"], 300) << tap.dump();
  EXPECT_TRUE(eventually([&] { return observer->result("gpio_read", {{"pin", 12}})["value"] == false; }, 5s, 10ms));
}

}  // namespace mcpud::it::output_limits
