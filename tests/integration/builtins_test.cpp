// SPDX-License-Identifier: MIT
// Every built-in tool against the pins of the simulated board (config/examples/sim.toml).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <map>
#include <set>
#include <thread>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using Builtins = SimDaemonTest;

TEST_F(Builtins, GpioWriteThenGpioReadReturnsTheLevelOnTheOutputAndItsLoopbackInput) {
  for (const bool level : {true, false, true}) {
    EXPECT_EQ(client().result("gpio_write", {{"pin", 2}, {"value", level}}),
              (json{{"pin", 2}, {"name", "led"}, {"value", level}}));
    EXPECT_EQ(client().result("gpio_read", {{"pin", 2}}), (json{{"pin", 2}, {"name", "led"}, {"value", level}}));
    // led_sense is wired to led: it reads what was just written.
    EXPECT_EQ(client().result("gpio_read", {{"pin", 3}}), (json{{"pin", 3}, {"name", "led_sense"}, {"value", level}}));
  }
}

// A client subscribed to a pin hears every write of it, whoever writes. The
// pin_changed event is built only while such a subscriber exists: a client that
// listens for other things (an MCP session, another pin) hears nothing.
TEST_F(Builtins, GpioWriteIsPushedToClientsSubscribedToThePinAndNoOneElse) {
  auto watcher = connect();
  auto bystander = connect();
  ASSERT_TRUE(watcher && bystander);
  bystander->result("initialize", {{"protocolVersion", "2025-06-18"},
                                   {"capabilities", json::object()},
                                   {"clientInfo", {{"name", "bystander"}, {"version", "1"}}}});
  bystander->result("resources/subscribe", {{"uri", "mcpu://pins/fan"}});
  watcher->result("resources/subscribe", {{"uri", "mcpu://pins/led"}});
  client().result("gpio_write", {{"pin", 2}, {"value", true}});
  const auto pushed = watcher->read_line(2s);
  ASSERT_TRUE(pushed) << "no update of the written pin was pushed";
  EXPECT_EQ(json::parse(*pushed), json::parse(R"({"jsonrpc":"2.0","method":"notifications/resources/updated",
      "params":{"uri":"mcpu://pins/led","event":"pin_changed","data":{"pin":2,"name":"led","value":true}}})"));
  EXPECT_TRUE(bystander->silent_for(500ms)) << "a client subscribed to another pin was told";

  watcher->result("resources/unsubscribe", {{"uri", "mcpu://pins/led"}});
  client().result("gpio_write", {{"pin", 2}, {"value", false}});
  EXPECT_TRUE(watcher->silent_for(500ms)) << "told after unsubscribing";
}

// What the activity's subscriber is pushed of one gpio_write by another client.
json watched_gpio_write(LineClient& watcher, LineClient& writer) {
  EXPECT_TRUE(watcher.result("subscribe", {{"uris", {"mcpu://daemon/activity"}}}).contains("subscribed"));
  EXPECT_EQ(writer.result("gpio_write", {{"pin", 2}, {"value", true}}),
            (json{{"pin", 2}, {"name", "led"}, {"value", true}}));
  const auto pushed = watcher.read_line(2s);
  EXPECT_TRUE(pushed) << "the call was not pushed to the activity's subscriber";
  return pushed ? json::parse(*pushed)["params"]["data"] : json();
}

// The activity tells every client (TCP has no authentication) which tool ran
// and how it went, not what another client passed it or got back.
TEST_F(Builtins, TheActivityNamesACallAndItsOutcomeNotItsArguments) {
  auto watcher = connect();
  ASSERT_TRUE(watcher);
  const json data = watched_gpio_write(*watcher, client());
  EXPECT_EQ(data["tool"], "gpio_write") << data;
  EXPECT_EQ(data["ok"], true) << data;
  EXPECT_FALSE(data.contains("arguments")) << data;
  EXPECT_FALSE(data.contains("result")) << data;
}

// gpio_write and gpio_read answer a client with text they write directly; a
// call the activity watches (with [mcp] activity_details) is recorded with its
// result as a value all the same.
TEST(BuiltinsActivity, WithActivityDetailsAWatchedGpioCallIsInTheActivityWithItsResult) {
  DaemonProcess daemon;
  const auto port = daemon.start_tcp(
      {"--config", daemon.write_file("mcpud.toml", sim_config_toml() + "\n[mcp]\nactivity_details = true\n")});
  ASSERT_NE(port, 0);
  auto watcher = LineClient::connect_tcp(port);
  auto writer = LineClient::connect_tcp(port);
  ASSERT_TRUE(watcher && writer);
  const json data = watched_gpio_write(*watcher, *writer);
  EXPECT_EQ(data["tool"], "gpio_write") << data;
  EXPECT_EQ(data["arguments"], (json{{"pin", 2}, {"value", true}})) << data;
  EXPECT_EQ(data["result"], (json{{"pin", 2}, {"name", "led"}, {"value", true}})) << data;
}

TEST_F(Builtins, GpioReadOfTheSquareWaveButtonIsABoolean) {
  const json reply = client().result("gpio_read", {{"pin", 4}});
  EXPECT_EQ(reply["name"], "button");
  EXPECT_TRUE(reply["value"].is_boolean()) << reply.dump();
}

TEST_F(Builtins, PwmWriteAcceptsTheWholeDutyRangeAndKeepsTheConfiguredFrequency) {
  for (const int duty : {0, 1, 128, 254, 255}) {
    EXPECT_EQ(client().result("pwm_write", {{"pin", 18}, {"duty", duty}}),
              (json{{"pin", 18}, {"name", "fan"}, {"duty", duty}, {"frequency_hz", 25000}}));
  }
}

TEST_F(Builtins, PwmWriteWithFrequencyChangesIt) {
  EXPECT_EQ(client().result("pwm_write", {{"pin", 18}, {"duty", 64}, {"frequency_hz", 1000}}),
            (json{{"pin", 18}, {"name", "fan"}, {"duty", 64}, {"frequency_hz", 1000}}));
  // The new frequency stays when later writes leave it out.
  EXPECT_EQ(client().result("pwm_write", {{"pin", 18}, {"duty", 65}})["frequency_hz"], 1000);
}

TEST_F(Builtins, PwmWriteRefusesDutyOutsideZeroTo255) {
  for (const int duty : {256, -1}) {
    const json reply = client().call("pwm_write", {{"pin", 18}, {"duty", duty}}, duty);
    EXPECT_EQ(reply["id"], duty);
    EXPECT_TRUE(is_error(reply, -32602));
    EXPECT_TRUE(contains(reply["error"]["message"].get<std::string>(), "params.duty"));
  }
}

TEST_F(Builtins, AdcReadReturnsARawValueInTheSimulatedRangeAndItsVolts) {
  for (int i = 0; i < 3; ++i) {
    const json reply = client().result("adc_read", {{"pin", 34}});
    EXPECT_EQ(reply["pin"], 34);
    EXPECT_EQ(reply["name"], "light");
    ASSERT_TRUE(reply["value"].is_number_integer()) << reply.dump();
    const int value = reply["value"];
    EXPECT_GE(value, 100);
    EXPECT_LE(value, 1000);
    const double volts = reply["volts"];
    EXPECT_NEAR(volts, value * 3300.0 / 4095.0 / 1000.0, 0.0011) << reply.dump();
  }
}

TEST_F(Builtins, GetPinSummaryByNumberAndByNameDescribesTheSamePinAndGrows) {
  json first;
  ASSERT_TRUE(eventually(
      [&] {
        first = client().result("get_pin_summary", {{"pin", 34}});
        return first.value("samples", 0) >= 1;
      },
      5s))
      << first.dump();
  EXPECT_EQ(first["pin"], 34);
  EXPECT_EQ(first["name"], "light");
  const double latest = first["latest"];
  const double min = first["min"];
  const double max = first["max"];
  const double avg = first["avg"];
  EXPECT_GE(min, 100.0);
  EXPECT_LE(max, 1000.0);
  EXPECT_LE(min, latest);
  EXPECT_LE(latest, max);
  EXPECT_LE(min, avg + 0.001);
  EXPECT_LE(avg, max + 0.001);

  json by_name;
  ASSERT_TRUE(eventually(
      [&] {
        by_name = client().result("get_pin_summary", {{"pin", "light"}});
        return by_name.value("samples", 0) > first["samples"].get<int>();
      },
      5s))
      << "samples did not grow: " << first.dump() << " then " << by_name.dump();
  EXPECT_EQ(by_name["pin"], 34);
  EXPECT_EQ(by_name["name"], "light");
}

TEST_F(Builtins, GetPinBufferReturnsSamplesAndACursorThatSkipsWhatWasAlreadyRead) {
  json first;
  ASSERT_TRUE(eventually(
      [&] {
        first = client().result("get_pin_buffer", {{"pin", "button"}});
        return first.value("count", 0) >= 2;
      },
      5s))
      << first.dump();
  EXPECT_EQ(first["pin"], "button");
  EXPECT_EQ(first["interval_ms"], 100);
  ASSERT_TRUE(first["values"].is_array());
  EXPECT_EQ(first["values"].size(), first["count"].get<std::size_t>());
  EXPECT_LE(first["count"].get<int>(), 20);
  for (const auto& value : first["values"]) EXPECT_TRUE(value == 0 || value == 1) << value;
  const auto next_since = first["next_since"].get<std::uint64_t>();
  EXPECT_EQ(next_since, first["first_seq"].get<std::uint64_t>() + first["count"].get<std::uint64_t>() - 1);

  json second;
  ASSERT_TRUE(eventually(
      [&] {
        second = client().result("get_pin_buffer", {{"pin", "button"}, {"since", next_since}, {"timestamps", true}});
        return second.value("count", 0) >= 1;
      },
      5s))
      << second.dump();
  // Only samples newer than the first read, and none lost in between.
  EXPECT_EQ(second["first_seq"].get<std::uint64_t>(), next_since + 1) << second.dump();
  EXPECT_EQ(second["lost"], 0) << second.dump();
  ASSERT_EQ(second["timestamps_ms"].size(), second["values"].size());
  for (std::size_t i = 1; i < second["timestamps_ms"].size(); ++i) {
    EXPECT_GT(second["timestamps_ms"][i].get<std::int64_t>(), second["timestamps_ms"][i - 1].get<std::int64_t>());
  }

  // Nothing new yet at the very end of the buffer: an empty, well-formed slice.
  const auto last = second["next_since"].get<std::uint64_t>();
  const json at_end = client().result("get_pin_buffer", {{"pin", "button"}, {"since", last}});
  EXPECT_EQ(at_end["values"].size(), at_end["count"].get<std::size_t>());
  if (at_end["count"] != 0) {
    EXPECT_EQ(at_end["first_seq"].get<std::uint64_t>(), last + 1);
  }
}

TEST_F(Builtins, GetPinBufferLimitReturnsTheOldestRequestedSamples) {
  json full;
  ASSERT_TRUE(eventually(
      [&] {
        full = client().result("get_pin_buffer", {{"pin", 4}});
        return full.value("count", 0) >= 6;
      },
      5s))
      << full.dump();
  const auto from = full["first_seq"].get<std::uint64_t>();
  const json limited = client().result("get_pin_buffer", {{"pin", 4}, {"since", from}, {"limit", 3}});
  EXPECT_EQ(limited["count"], 3) << limited.dump();
  EXPECT_EQ(limited["values"].size(), 3u);
  EXPECT_EQ(limited["first_seq"].get<std::uint64_t>(), from + 1) << limited.dump();
  EXPECT_EQ(limited["next_since"].get<std::uint64_t>(), from + 3) << limited.dump();
}

TEST_F(Builtins, GetPinBufferOnAPinWithoutBufferSaysSo) {
  for (const json& pin : {json("led_sense"), json(2), json("fan")}) {
    const json reply = client().result("get_pin_buffer", {{"pin", pin}});
    EXPECT_EQ(reply["buffer_available"], false) << reply.dump();
    EXPECT_TRUE(reply["reason"].is_string()) << reply.dump();
  }
}

TEST_F(Builtins, GetPinEventsReportsTheButtonEdgesWithinSeconds) {
  // The button toggles every 2 s: two edges arrive well within 10 s.
  json events = json::array();
  std::uint64_t since = 0;
  ASSERT_TRUE(eventually(
      [&] {
        const json reply = client().result("get_pin_events", {{"pin", "button"}, {"since", since}});
        if (!reply.is_object()) return true;  // already reported
        for (const auto& event : reply["events"]) events.push_back(event);
        since = reply["next_since"];
        return events.size() >= 2;
      },
      10s, 200ms))
      << events.dump();
  ASSERT_GE(events.size(), 2u);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const json& event = events[i];
    const std::string type = event["type"];
    EXPECT_TRUE(type == "rising" || type == "falling") << event.dump();
    EXPECT_EQ(event["value"], type == "rising" ? 1.0 : 0.0) << event.dump();
    EXPECT_TRUE(event["timestamp_ms"].is_number_integer()) << event.dump();
    EXPECT_TRUE(event["seq"].is_number_integer()) << event.dump();
    if (i == 0) continue;
    EXPECT_GT(event["seq"].get<std::uint64_t>(), events[i - 1]["seq"].get<std::uint64_t>());
    EXPECT_GE(event["timestamp_ms"].get<std::int64_t>(), events[i - 1]["timestamp_ms"].get<std::int64_t>());
    EXPECT_NE(event["type"], events[i - 1]["type"]) << "edges of a square wave alternate: " << events.dump();
  }
}

// Ticks the daemon could not take (here: stopped for a second) are counted as
// missed, not sampled late in a burst: led_sense is sampled every 50 ms.
TEST_F(Builtins, TicksTheDaemonSleptThroughAreCountedAsMissedNotSampled) {
  const json before = client().result("get_pin_summary", {{"pin", "led_sense"}});
  ASSERT_TRUE(before["missed"].is_number_unsigned()) << before.dump();
  const auto stopped_at = std::chrono::steady_clock::now();
  daemon_.signal(SIGSTOP);
  std::this_thread::sleep_for(1s);
  daemon_.signal(SIGCONT);
  // 20 ticks fell in the second it slept; the first after it is sampled (the
  // timer may be served after the first request: ask until it was).
  json after;
  std::uint64_t missed = 0;
  ASSERT_TRUE(eventually(
      [&] {
        after = client().result("get_pin_summary", {{"pin", "led_sense"}});
        missed = after["missed"].get<std::uint64_t>() - before["missed"].get<std::uint64_t>();
        return missed >= 15;
      },
      2s))
      << before.dump() << " -> " << after.dump();
  const auto elapsed_ticks = (std::chrono::steady_clock::now() - stopped_at) / 50ms;
  const auto sampled = after["samples"].get<std::uint64_t>() - before["samples"].get<std::uint64_t>();
  EXPECT_LE(sampled, 8u) << "the ticks slept through were sampled in a burst: " << after.dump();
  EXPECT_LE(missed + sampled, static_cast<std::uint64_t>(elapsed_ticks) + 2) << after.dump();
}

TEST_F(Builtins, GetPinEventsOnAPinWithoutEventsSaysSo) {
  const json reply = client().result("get_pin_events", {{"pin", "fan"}});
  EXPECT_EQ(reply["events"], json::array());
  EXPECT_EQ(reply["events_available"], false) << reply.dump();
}

// What hosts decide approval from: every tool of the built-in board, user-only
// ones included, has a title and all four hints, and they are true. A tool
// added without a place in one of these lists fails here until someone says
// what it does.
TEST_F(Builtins, EveryToolHasATitleAndAllFourHintsAndTheyAreTrue) {
  const std::set<std::string> reads = {
      "gpio_read",        "adc_read",          "sensor_read",       "get_pin_summary",
      "get_pin_buffer",   "get_pin_events",    "board_health",      "onewire_list",
      "get_info",         "i2c_scan",          "i2c_read",          "serial_read",
      "serial_read_line", "serial_read_until", "serial_list_ports", "serial_list_sessions"};
  // Writes, and whether each may overwrite for good / changes nothing more when repeated.
  const std::map<std::string, std::pair<bool, bool>> writes = {
      {"gpio_write", {true, true}},       {"pwm_write", {true, true}},         {"emergency_stop", {false, true}},
      {"serial_connect", {false, false}}, {"serial_disconnect", {true, true}}, {"serial_flush", {true, true}},
      {"serial_send", {true, false}},     {"serial_exec", {true, false}},      {"serial_set_lines", {true, false}},
      {"i2c_write", {true, false}},       {"spi_transfer", {true, false}}};
  client().result("initialize", {{"protocolVersion", "2025-11-25"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "walker"}, {"version", "1"}}}});
  const json tools = mcp_tools(client(), {{"withUserTools", true}});
  ASSERT_GT(tools.size(), 20u) << tools.dump();
  for (const auto& tool : tools) {
    const std::string name = tool["name"];
    SCOPED_TRACE(name);
    ASSERT_TRUE(tool.contains("title") && tool["title"].is_string() && !tool["title"].get<std::string>().empty());
    const json& hints = tool["annotations"];
    EXPECT_EQ(hints["title"], tool["title"]);
    for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
      ASSERT_TRUE(hints.contains(hint) && hints[hint].is_boolean()) << hint;
    }
    EXPECT_EQ(hints["openWorldHint"], false) << "the board's own tools act on the board alone";
    EXPECT_FALSE(tool.contains("_meta")) << "mcpud describes its own tools";
    if (reads.contains(name)) {
      EXPECT_EQ(hints["readOnlyHint"], true);
      EXPECT_EQ(hints["destructiveHint"], false);
      EXPECT_EQ(hints["idempotentHint"], true);
      continue;
    }
    const auto write = writes.find(name);
    ASSERT_NE(write, writes.end()) << "a tool nobody classified: say what it does";
    EXPECT_EQ(hints["readOnlyHint"], false);
    EXPECT_EQ(hints["destructiveHint"], write->second.first);
    EXPECT_EQ(hints["idempotentHint"], write->second.second);
  }
}

TEST_F(Builtins, IntegralFloatsAreAcceptedWhereIntegersAreExpected) {
  // Clients that only have doubles (JavaScript) may send 128.0 for 128.
  EXPECT_EQ(client().result("pwm_write", {{"pin", 18.0}, {"duty", 128.0}})["duty"], 128);
  EXPECT_EQ(client().result("get_pin_summary", {{"pin", 34.0}})["name"], "light");
  EXPECT_TRUE(is_error(client().call("pwm_write", {{"pin", 18}, {"duty", 127.5}}, 1), -32602));
}

// Reads events of `pin` from `since` on, until `done(events)` holds or the deadline passes.
template <class Done>
json collect_events(LineClient& client, const json& pin, Done&& done, Deadline deadline) {
  json events = json::array();
  std::uint64_t since = 0;
  eventually(
      [&] {
        const json reply = client.result("get_pin_events", {{"pin", pin}, {"since", since}});
        if (!reply.is_object()) return true;
        for (const auto& event : reply["events"]) events.push_back(event);
        since = reply["next_since"];
        return done(events);
      },
      deadline, 100ms);
  return events;
}

TEST_F(Builtins, LoopbackInputRecordsARisingAndAFallingEdgeForTwoWrites) {
  const auto has = [](const json& events, const char* type) {
    return std::any_of(events.begin(), events.end(), [&](const json& e) { return e["type"] == type; });
  };
  ASSERT_EQ(client().result("gpio_write", {{"pin", 2}, {"value", true}})["value"], true);
  const json rising = collect_events(
      client(), "led_sense", [&](const json& e) { return has(e, "rising"); }, 5s);
  ASSERT_TRUE(has(rising, "rising")) << rising.dump();
  ASSERT_EQ(client().result("gpio_write", {{"pin", 2}, {"value", false}})["value"], false);
  const json both = collect_events(
      client(), "led_sense", [&](const json& e) { return has(e, "falling"); }, 5s);
  ASSERT_TRUE(has(both, "falling")) << both.dump();
  EXPECT_EQ(both.size(), 2u) << "exactly one edge per write: " << both.dump();
}

TEST(BuiltinsThresholds, FastSineCrossingBothThresholdsGivesHighLowAndInRangeEventsWithHysteresis) {
  DaemonProcess daemon;
  const std::string wave = R"(
[[pins]]
name = "wave"
pin = 35
type = "adc_input"
sim = { waveform = "sine", min = 100, max = 1000, period_ms = 1000 }
sampling = { interval_ms = 20, thresholds = [200.0, 900.0], hysteresis = 20.0 }
)";
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.extra_pins = wave}));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  // One second per period: four kinds of crossing within a few seconds.
  const json events = collect_events(
      *client, "wave", [](const json& e) { return e.size() >= 6; }, 10s);
  ASSERT_GE(events.size(), 6u) << events.dump();
  std::string previous;
  for (const auto& event : events) {
    const std::string type = event["type"];
    const double value = event["value"];
    const double threshold = event.value("threshold", -1.0);
    if (type == "threshold_high") {
      EXPECT_EQ(threshold, 900.0) << event.dump();
      EXPECT_GE(value, 900.0) << event.dump();
    } else if (type == "threshold_low") {
      EXPECT_EQ(threshold, 200.0) << event.dump();
      EXPECT_LE(value, 200.0) << event.dump();
    } else if (type == "in_range") {
      // Back in range only past the hysteresis band of the threshold left.
      const double floor = previous == "threshold_low" ? 220.0 : -1e9;
      const double ceiling = previous == "threshold_high" ? 880.0 : 1e9;
      EXPECT_GE(value, floor) << event.dump();
      EXPECT_LE(value, ceiling) << event.dump();
    } else {
      ADD_FAILURE() << "unexpected event type: " << event.dump();
    }
    EXPECT_NE(type, previous) << "the same state twice in a row: " << events.dump();
    previous = type;
  }
}

}  // namespace
}  // namespace mcpud::it
