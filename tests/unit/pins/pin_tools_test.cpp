// SPDX-License-Identifier: MIT
// Unit tests of the pin table and the built-in pin tools, called through the registry as clients call them.
#include "mcpud/pins/pin_tools.hpp"
#include "mcpud/pins/pin_table.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/schema.hpp"
#include "mcpud/core/toml_document.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/pins/pin_config.hpp"
#include "mcpud/pins/sensor_reads.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

// The board section of a TOML configuration, checked as the daemon checks it.
std::expected<BoardConfig, std::string> board_from_toml(std::string_view toml) {
  auto document = read_toml_document(toml, "test.toml");
  if (!document) return std::unexpected(document.error());
  json schema = {{"type", "object"}, {"properties", json::object()}};
  add_board_schema(schema);
  if (auto valid = schema::validate(schema, *document, ""); !valid) return std::unexpected(valid.error());
  return parse_board_config(*document);
}

// A board with one pin of each kind, plus sampled inputs of different capabilities.
// The loopback input comes before its output on purpose.
constexpr const char* kBoard = R"(
device = "test-board"

[[pins]]
name = "led_sense"
pin = 3
type = "digital_input"
description = "Reads back the led"
sim = { mode = "loopback", from = "led" }
sampling = { interval_ms = 50, edges = "both" }

[[pins]]
name = "led"
pin = 2
type = "digital_output"
description = "Onboard LED"
initial = false
safe_value = false

[[pins]]
name = "relay"
pin = 5
type = "digital_output"
initial = true

[[pins]]
name = "button"
pin = 4
type = "digital_input"
sim = { mode = "constant", level = true }

[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
pwm = { frequency_hz = 25000 }
safe_duty = 0

[[pins]]
name = "light"
pin = 34
type = "adc_input"
sim = { waveform = "constant", min = 1000, max = 1000, scale_mv = 1.0 }
sampling = { interval_ms = 500, buffer_size = 4, thresholds = [200.0, 900.0], hysteresis = 20.0 }

[[pins]]
name = "quiet"
pin = 35
type = "adc_input"
sim = { waveform = "constant", min = 4095, max = 4095 }
sampling = { interval_ms = 100, summary = false }
)";

class PinTools : public ::testing::Test {
 protected:
  void SetUp() override { build(kBoard); }

  void build(std::string_view toml) {
    auto board = board_from_toml(toml);
    ASSERT_TRUE(board) << board.error();
    auto table = PinTable::build(*board, "test-board");
    ASSERT_TRUE(table) << table.error().message;
    registry = std::make_unique<ToolRegistry>();
    pins = std::move(*table);
    register_pin_tools(*registry, *pins, reads);
  }

  ToolResult call(std::string_view tool, json args) {
    std::optional<ToolResult> result;
    int replies = 0;
    registry->call(Caller{}, tool, std::move(args), [&](ToolResult r) {
      ++replies;
      result = std::move(r);
    });
    EXPECT_EQ(replies, 1) << tool;
    return result.value_or(std::unexpected(Error::internal("no reply")));
  }

  json ok(std::string_view tool, json args) {
    auto result = call(tool, args);
    EXPECT_TRUE(result) << tool << " " << args.dump() << ": " << (result ? "" : result.error().message);
    return result ? *result : json();
  }

  Error failure(std::string_view tool, json args) {
    auto result = call(tool, args);
    EXPECT_FALSE(result) << tool << " " << args.dump() << " gave " << (result ? result->dump() : "");
    return result ? Error{} : result.error();
  }

  BoardPin* pin(std::string_view name) {
    auto* found = pins->find(name);
    EXPECT_NE(found, nullptr) << name;
    return found;
  }

  PinSampler& sampler(std::string_view name) {
    auto* pin = pins->find(name);
    EXPECT_NE(pin, nullptr) << name;
    EXPECT_NE(pin->sampler, nullptr) << name;
    return *pin->sampler;
  }

  boost::asio::io_context io;
  SensorReads reads{io};
  std::unique_ptr<PinTable> pins;
  std::unique_ptr<ToolRegistry> registry;
};

// --- registration ----------------------------------------------------------------

TEST_F(PinTools, RegistersAllEightToolsUnderOwnerPins) {
  std::vector<std::string> names;
  for (const auto& tool : registry->tools()) {
    names.push_back(tool->name);
    EXPECT_EQ(tool->owner, kPinToolsOwner) << tool->name;
    EXPECT_FALSE(tool->description.empty()) << tool->name;
    EXPECT_EQ(tool->input_schema.at("type"), "object") << tool->name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"gpio_write", "gpio_read", "pwm_write", "adc_read", "board_health",
                                             "get_pin_summary", "get_pin_buffer", "get_pin_events"}));
  EXPECT_EQ(registry->remove_owner(kPinToolsOwner), 8u);
  EXPECT_EQ(registry->size(), 0u);
}

TEST_F(PinTools, MarksOnlyTheWritingToolsAsNotReadOnly) {
  for (const auto& tool : registry->tools()) {
    const bool writes = tool->name == "gpio_write" || tool->name == "pwm_write";
    EXPECT_EQ(tool->annotations.read_only, !writes) << tool->name;
  }
}

TEST_F(PinTools, RegistersAllToolsInOneChangeNotification) {
  ToolRegistry fresh;
  int changes = 0;
  fresh.on_change([&] { ++changes; });
  register_pin_tools(fresh, *pins, reads);
  EXPECT_EQ(changes, 1);
}

TEST_F(PinTools, LeavesOutTheSamplingToolsWhenNoPinIsSampled) {
  build(R"(
[[pins]]
name = "led"
pin = 2
type = "digital_output"
[[pins]]
name = "a"
pin = 3
type = "adc_input"
)");
  std::vector<std::string> names;
  for (const auto& tool : registry->tools()) names.push_back(tool->name);
  EXPECT_EQ(names, (std::vector<std::string>{"gpio_write", "gpio_read", "pwm_write", "adc_read", "board_health"}));
  EXPECT_EQ(call("get_pin_summary", {{"pin", 3}}).error().code, rpc_code::kMethodNotFound);
}

// --- announcing driven outputs ---------------------------------------------------

// gpio_write and pwm_write tell the event hub which output they drove, but
// build that event only while some subscriber wants pin changes (a client
// subscribed to the pin, the fleet uplink): a listener of other kinds costs
// the hot path nothing.
TEST_F(PinTools, DrivenOutputs_AreAnnouncedOnlyWhilePinChangesAreWanted) {
  EventHub events;
  registry = std::make_unique<ToolRegistry>();
  register_pin_tools(*registry, *pins, reads, &events);
  std::vector<Event> heard;
  const auto listening = events.subscribe([&](const Event& event) { heard.push_back(event); });
  const auto other_kinds = events.want(EventKind::PinEvent);
  ok("gpio_write", {{"pin", 2}, {"value", true}});
  EXPECT_TRUE(heard.empty()) << "announced though nobody wants pin changes";
  {
    const auto wanted = events.want(EventKind::PinChanged);
    ok("gpio_write", {{"pin", 2}, {"value", false}});
    ok("pwm_write", {{"pin", 18}, {"duty", 128}});
    ASSERT_EQ(heard.size(), 2u);
    EXPECT_EQ(heard[0].kind, EventKind::PinChanged);
    EXPECT_EQ(heard[0].source, "led");
    EXPECT_EQ(heard[0].data, json::parse(R"({"pin":2,"name":"led","value":false})"));
    EXPECT_EQ(heard[1].kind, EventKind::PinChanged);
    EXPECT_EQ(heard[1].source, "fan");
    EXPECT_EQ(heard[1].data["duty"], 128);
  }
  ok("gpio_write", {{"pin", 2}, {"value", true}});
  EXPECT_EQ(heard.size(), 2u) << "announced after the interest ended";
}

// --- gpio ---------------------------------------------------------------------

TEST_F(PinTools, GpioWrite_RepliesPinNameValueAndDrivesTheOutput) {
  EXPECT_EQ(ok("gpio_write", {{"pin", 2}, {"value", true}}), json::parse(R"({"pin":2,"name":"led","value":true})"));
  EXPECT_TRUE(*pin("led")->output->read());
  EXPECT_EQ(ok("gpio_write", {{"pin", 2}, {"value", false}}), json::parse(R"({"pin":2,"name":"led","value":false})"));
  EXPECT_FALSE(*pin("led")->output->read());
}

TEST_F(PinTools, GpioRead_ReadsOutputsAndInputs) {
  EXPECT_EQ(ok("gpio_read", {{"pin", 5}}), json::parse(R"({"pin":5,"name":"relay","value":true})"));
  EXPECT_EQ(ok("gpio_read", {{"pin", 4}}), json::parse(R"({"pin":4,"name":"button","value":true})"));
  EXPECT_EQ(ok("gpio_read", {{"pin", 2}}), json::parse(R"({"pin":2,"name":"led","value":false})"));
}

TEST_F(PinTools, GpioRead_LoopbackInputFollowsItsOutput) {
  EXPECT_EQ(ok("gpio_read", {{"pin", 3}}).at("value"), false);
  ok("gpio_write", {{"pin", 2}, {"value", true}});
  EXPECT_EQ(ok("gpio_read", {{"pin", 3}}), json::parse(R"({"pin":3,"name":"led_sense","value":true})"));
}

TEST_F(PinTools, GpioWrite_AcceptsAnIntegralFloatPinNumber) {
  EXPECT_EQ(ok("gpio_write", {{"pin", 2.0}, {"value", true}}).at("pin"), 2);
}

struct ToolErrorCase {
  const char* tool;
  json args;
  int code;
  std::string data_code;  // empty for protocol errors
  std::string message;
};

TEST_F(PinTools, ErrorsAsTable) {
  const std::vector<ToolErrorCase> cases = {
      {"gpio_write", {{"pin", 99}, {"value", true}}, -32001, "PIN_NOT_FOUND", "Pin not found: 99"},
      {"gpio_write",
       {{"pin", 4}, {"value", true}},
       -32002,
       "WRONG_PIN_TYPE",
       "Wrong pin type: pin 4 (button) is digital_input; gpio_write needs digital_output"},
      {"gpio_write",
       {{"pin", 18}, {"value", true}},
       -32002,
       "WRONG_PIN_TYPE",
       "Wrong pin type: pin 18 (fan) is pwm_output; gpio_write needs digital_output"},
      {"gpio_read",
       {{"pin", 34}},
       -32002,
       "WRONG_PIN_TYPE",
       "Wrong pin type: pin 34 (light) is adc_input; gpio_read needs digital_input or digital_output"},
      {"pwm_write",
       {{"pin", 2}, {"duty", 1}},
       -32002,
       "WRONG_PIN_TYPE",
       "Wrong pin type: pin 2 (led) is digital_output; pwm_write needs pwm_output"},
      {"adc_read",
       {{"pin", 4}},
       -32002,
       "WRONG_PIN_TYPE",
       "Wrong pin type: pin 4 (button) is digital_input; adc_read needs adc_input"},
      {"adc_read", {{"pin", 1}}, -32001, "PIN_NOT_FOUND", "Pin not found: 1"},
      {"gpio_write", {{"pin", -1}, {"value", true}}, -32001, "PIN_NOT_FOUND", "Pin not found: -1"},
      // Numbers that would alias a real pin if narrowed to int: 2^32 + 2 and -(2^32) + 2.
      {"gpio_write", {{"pin", 4294967298LL}, {"value", true}}, -32001, "PIN_NOT_FOUND", "Pin not found: 4294967298"},
      {"gpio_write", {{"pin", -4294967294LL}, {"value", true}}, -32001, "PIN_NOT_FOUND", "Pin not found: -4294967294"},
      {"get_pin_summary", {{"pin", 4294967330ULL}}, -32001, "PIN_NOT_FOUND", "Pin not found: 4294967330"},
      {"get_pin_summary", {{"pin", "nope"}}, -32001, "PIN_NOT_FOUND", "Pin not found: \"nope\""},
      {"get_pin_summary", {{"pin", 18}}, -32003, "SAMPLING_NOT_ENABLED", "Summary not enabled for this pin: fan"},
      {"get_pin_summary",
       {{"pin", "quiet"}},
       -32003,
       "SAMPLING_NOT_ENABLED",
       "Summary not enabled for this pin: quiet"},
      {"get_pin_buffer", {{"pin", 77}}, -32001, "PIN_NOT_FOUND", "Pin not found: 77"},
      {"get_pin_events", {{"pin", "ghost"}}, -32001, "PIN_NOT_FOUND", "Pin not found: \"ghost\""},
      {"gpio_write", {{"pin", 2}, {"value", 1}}, -32602, "", "params.value: expected boolean, got integer"},
      {"gpio_write", {{"pin", 2}}, -32602, "", "params.value: required property is missing"},
      {"gpio_write", {{"pin", "led"}, {"value", true}}, -32602, "", "params.pin: expected integer, got string"},
      {"pwm_write", {{"pin", 18}, {"duty", 300}}, -32602, "", "params.duty: 300 is above the maximum 255"},
      {"pwm_write", {{"pin", 18}, {"duty", -1}}, -32602, "", "params.duty: -1 is below the minimum 0"},
      {"pwm_write",
       {{"pin", 18}, {"duty", 10}, {"frequency_hz", 0}},
       -32602,
       "",
       "params.frequency_hz: 0 is below the minimum 1"},
      {"get_pin_buffer", {{"pin", 34}, {"limit", 0}}, -32602, "", "params.limit: 0 is below the minimum 1"},
      {"get_pin_events", {{"pin", 34}, {"since", -1}}, -32602, "", "params.since: -1 is below the minimum 0"},
  };
  for (const auto& c : cases) {
    const auto error = failure(c.tool, c.args);
    EXPECT_EQ(error.code, c.code) << c.tool << " " << c.args.dump();
    EXPECT_EQ(error.name, c.data_code) << c.tool << " " << c.args.dump();
    if (c.code == -32602) {
      EXPECT_EQ(error.message.substr(0, c.message.size()), c.message) << c.tool << " " << c.args.dump();
    } else {
      EXPECT_EQ(error.message, c.message) << c.tool << " " << c.args.dump();
    }
  }
}

TEST_F(PinTools, RefusedWritesLeaveTheHardwareAlone) {
  failure("gpio_write", {{"pin", 2}, {"value", 1}});
  EXPECT_FALSE(*pin("led")->output->read());
  failure("gpio_write", {{"pin", 4294967298LL}, {"value", true}});
  EXPECT_FALSE(*pin("led")->output->read());
  failure("pwm_write", {{"pin", 18}, {"duty", 256}});
  EXPECT_EQ(pin("fan")->pwm->state().duty, 0);
}

// --- pwm and adc ----------------------------------------------------------------

TEST_F(PinTools, PwmWrite_RepliesPinNameDutyAndFrequency) {
  EXPECT_EQ(ok("pwm_write", {{"pin", 18}, {"duty", 128}}),
            json::parse(R"({"pin":18,"name":"fan","duty":128,"frequency_hz":25000})"));
  EXPECT_DOUBLE_EQ(pins->find(18)->pwm->state().duty, 128 / 255.0);
}

TEST_F(PinTools, PwmWrite_FrequencyIsOptionalAndSticks) {
  EXPECT_EQ(ok("pwm_write", {{"pin", 18}, {"duty", 255}, {"frequency_hz", 1000}}),
            json::parse(R"({"pin":18,"name":"fan","duty":255,"frequency_hz":1000})"));
  EXPECT_EQ(ok("pwm_write", {{"pin", 18}, {"duty", 0}}),
            json::parse(R"({"pin":18,"name":"fan","duty":0,"frequency_hz":1000})"));
  EXPECT_EQ(pins->find(18)->pwm->state().frequency_hz, 1000u);
  EXPECT_EQ(pins->find(18)->pwm->state().duty, 0);
}

TEST_F(PinTools, AdcRead_RepliesPinNameRawValueAndVolts) {
  EXPECT_EQ(ok("adc_read", {{"pin", 34}}), json::parse(R"({"pin":34,"name":"light","value":1000,"volts":1.0})"));
}

TEST_F(PinTools, AdcRead_VoltsUseTheDefaultTwelveBitScaleRoundedToMillivolts) {
  EXPECT_EQ(ok("adc_read", {{"pin", 35}}), json::parse(R"({"pin":35,"name":"quiet","value":4095,"volts":3.3})"));
}

// --- summary, buffer, events ------------------------------------------------------

TEST_F(PinTools, GetPinSummary_ReportsTheSamplesFedByNameOrNumber) {
  auto& s = sampler("light");
  s.add(100, 1000);
  s.add(300, 2000);
  s.add(200, 3000);
  const auto expected = json::parse(R"({"pin":34,"name":"light","latest":200.0,"min":100.0,"max":300.0,
      "avg":200.0,"samples":3,"missed":0,"latest_timestamp_ms":3000})");
  EXPECT_EQ(ok("get_pin_summary", {{"pin", "light"}}), expected);
  EXPECT_EQ(ok("get_pin_summary", {{"pin", 34}}), expected);
}

TEST_F(PinTools, GetPinSummary_RoundsTheAverageToThreeDecimals) {
  auto& s = sampler("light");
  s.add(1, 1);
  s.add(2, 2);
  s.add(2, 3);
  EXPECT_EQ(ok("get_pin_summary", {{"pin", 34}}).at("avg"), 1.667);
}

TEST_F(PinTools, GetPinSummary_CountsBeyondSixteenBits) {
  auto& s = sampler("led_sense");
  for (int i = 0; i < 100000; ++i) s.add(i % 2, i);
  const auto summary = ok("get_pin_summary", {{"pin", "led_sense"}});
  EXPECT_EQ(summary.at("samples"), 100000);
  EXPECT_EQ(summary.at("avg"), 0.5);
  EXPECT_EQ(summary.at("min"), 0.0);
  EXPECT_EQ(summary.at("max"), 1.0);
}

TEST_F(PinTools, GetPinBuffer_ReturnsTheNewestSamplesWithACursor) {
  auto& s = sampler("light");
  for (int i = 1; i <= 6; ++i) s.add(i * 10, 1000 * i);
  EXPECT_EQ(ok("get_pin_buffer", {{"pin", "light"}}), json::parse(R"({"pin":"light","values":[30.0,40.0,50.0,60.0],
      "interval_ms":500,"count":4,"first_seq":3,"next_since":6,"last_seq":6,"lost":2})"));
}

TEST_F(PinTools, GetPinBuffer_DrainsWithNextSinceWithoutGapsOrDuplicates) {
  auto& s = sampler("light");
  std::vector<double> drained;
  std::uint64_t since = 0;
  double next = 0;
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < round % 4; ++i) s.add(next++, round);
    const auto reply = ok("get_pin_buffer", {{"pin", 34}, {"since", since}, {"limit", 2}});
    EXPECT_EQ(reply.at("lost"), 0) << round;
    for (const auto& v : reply.at("values")) drained.push_back(v.get<double>());
    since = reply.at("next_since").get<std::uint64_t>();
    // Catch up before the next round so the 4-sample buffer never overflows.
    for (auto rest = ok("get_pin_buffer", {{"pin", 34}, {"since", since}}); rest.at("count") != 0;
         rest = ok("get_pin_buffer", {{"pin", 34}, {"since", since}})) {
      for (const auto& v : rest.at("values")) drained.push_back(v.get<double>());
      since = rest.at("next_since").get<std::uint64_t>();
    }
  }
  ASSERT_EQ(drained.size(), static_cast<std::size_t>(next));
  for (std::size_t i = 0; i < drained.size(); ++i) EXPECT_EQ(drained[i], static_cast<double>(i));
}

TEST_F(PinTools, GetPinBuffer_SinceAndLimitSelectASlice) {
  auto& s = sampler("light");
  for (int i = 1; i <= 4; ++i) s.add(i, i);
  const auto reply = ok("get_pin_buffer", {{"pin", 34}, {"since", 1}, {"limit", 2}});
  EXPECT_EQ(reply.at("values"), json::parse("[2.0,3.0]"));
  EXPECT_EQ(reply.at("first_seq"), 2);
  EXPECT_EQ(reply.at("next_since"), 3);
  EXPECT_EQ(reply.at("last_seq"), 4);
  EXPECT_EQ(reply.at("count"), 2);
  EXPECT_EQ(reply.at("lost"), 0);
}

TEST_F(PinTools, GetPinBuffer_NothingNewKeepsTheCursor) {
  auto& s = sampler("light");
  s.add(1, 1);
  s.add(2, 2);
  const auto reply = ok("get_pin_buffer", {{"pin", 34}, {"since", 2}});
  EXPECT_EQ(reply.at("values"), json::array());
  EXPECT_EQ(reply.at("count"), 0);
  EXPECT_EQ(reply.at("first_seq"), 3);
  EXPECT_EQ(reply.at("next_since"), 2);
  EXPECT_EQ(reply.at("lost"), 0);
}

TEST_F(PinTools, GetPinBuffer_SinceFromTheFutureResetsTheCursorToTheNewest) {
  // A client that kept its cursor across a daemon restart asks beyond last_seq.
  auto& s = sampler("light");
  s.add(1, 1);
  const auto reply = ok("get_pin_buffer", {{"pin", 34}, {"since", 500}});
  EXPECT_EQ(reply.at("count"), 0);
  EXPECT_EQ(reply.at("next_since"), 1);
  EXPECT_EQ(reply.at("lost"), 0);
}

TEST_F(PinTools, GetPinBuffer_LargestSinceLosesNothing) {
  auto& s = sampler("light");
  for (int i = 1; i <= 6; ++i) s.add(i, i);
  const auto reply = ok("get_pin_buffer", {{"pin", 34}, {"since", std::numeric_limits<std::uint64_t>::max()}});
  EXPECT_EQ(reply.at("count"), 0);
  EXPECT_EQ(reply.at("lost"), 0) << reply.dump();
  EXPECT_EQ(reply.at("next_since"), 6);
}

TEST_F(PinTools, GetPinBuffer_TimestampsOnRequest) {
  auto& s = sampler("light");
  s.add(5, 1700000000000);
  s.add(6, 1700000000500);
  EXPECT_FALSE(ok("get_pin_buffer", {{"pin", 34}}).contains("timestamps_ms"));
  EXPECT_EQ(ok("get_pin_buffer", {{"pin", 34}, {"timestamps", true}}).at("timestamps_ms"),
            json::parse("[1700000000000,1700000000500]"));
}

TEST_F(PinTools, GetPinBuffer_WithoutABufferSaysSo) {
  for (const char* name : {"led_sense", "fan"}) {
    const auto reply = ok("get_pin_buffer", {{"pin", name}});
    EXPECT_EQ(reply.at("pin"), name);
    EXPECT_EQ(reply.at("buffer_available"), false) << name;
    EXPECT_TRUE(reply.at("reason").is_string()) << name;
    EXPECT_FALSE(reply.contains("values")) << name;
  }
}

TEST_F(PinTools, GetPinEvents_QueuesThresholdCrossingsWithHysteresis) {
  auto& s = sampler("light");
  s.add(500, 1);  // in range: no event
  s.add(950, 2);  // above 900
  s.add(890, 3);  // inside the 20 of hysteresis: still high
  s.add(850, 4);  // back in range
  s.add(100, 5);  // below 200
  EXPECT_EQ(ok("get_pin_events", {{"pin", "light"}}), json::parse(R"({"pin":"light","events":[
      {"seq":1,"type":"threshold_high","value":950.0,"threshold":900.0,"timestamp_ms":2},
      {"seq":2,"type":"in_range","value":850.0,"threshold":900.0,"timestamp_ms":4},
      {"seq":3,"type":"threshold_low","value":100.0,"threshold":200.0,"timestamp_ms":5}],
      "count":3,"first_seq":1,"next_since":3,"last_seq":3,"lost":0})"));
}

TEST_F(PinTools, GetPinEvents_SinceAndLimitSelectASlice) {
  auto& s = sampler("light");
  for (int i = 0; i < 3; ++i) {
    s.add(1000, 2 * i);
    s.add(500, 2 * i + 1);
  }
  const auto reply = ok("get_pin_events", {{"pin", 34}, {"since", 2}, {"limit", 2}});
  ASSERT_EQ(reply.at("events").size(), 2u);
  EXPECT_EQ(reply.at("events")[0].at("seq"), 3);
  EXPECT_EQ(reply.at("events")[1].at("seq"), 4);
  EXPECT_EQ(reply.at("next_since"), 4);
  EXPECT_EQ(reply.at("last_seq"), 6);
}

TEST_F(PinTools, GetPinEvents_EdgesHaveNoThreshold) {
  auto& s = sampler("led_sense");
  s.add(0, 10);
  s.add(1, 20);
  s.add(0, 30);
  const auto reply = ok("get_pin_events", {{"pin", 3}});
  EXPECT_EQ(reply.at("events"), json::parse(R"([
      {"seq":1,"type":"rising","value":1.0,"timestamp_ms":20},
      {"seq":2,"type":"falling","value":0.0,"timestamp_ms":30}])"));
}

TEST_F(PinTools, GetPinEvents_WithoutEventsConfiguredSaysSo) {
  for (const char* name : {"quiet", "button"}) {
    const auto reply = ok("get_pin_events", {{"pin", name}});
    EXPECT_EQ(reply.at("pin"), name);
    EXPECT_EQ(reply.at("events"), json::array()) << name;
    EXPECT_EQ(reply.at("events_available"), false) << name;
    EXPECT_TRUE(reply.at("reason").is_string()) << name;
  }
}

// --- the pin table ----------------------------------------------------------------

TEST_F(PinTools, PinTable_KeepsTheConfiguredOrder) {
  std::vector<std::string> names;
  for (const auto& pin : pins->pins()) names.push_back(pin->name());
  EXPECT_EQ(names, (std::vector<std::string>{"led_sense", "led", "relay", "button", "fan", "light", "quiet"}));
}

TEST_F(PinTools, PinTable_CreatesHardwareAndSamplersPerType) {
  for (const auto& pin : pins->pins()) {
    EXPECT_EQ(pin->output != nullptr, pin->type() == hal::PinType::DigitalOutput) << pin->name();
    EXPECT_EQ(pin->input != nullptr, pin->type() == hal::PinType::DigitalInput) << pin->name();
    EXPECT_EQ(pin->pwm != nullptr, pin->type() == hal::PinType::PwmOutput) << pin->name();
    EXPECT_EQ(pin->adc != nullptr, pin->type() == hal::PinType::AdcInput) << pin->name();
    EXPECT_EQ(pin->sampler != nullptr, pin->config.sampling.has_value()) << pin->name();
  }
}

TEST_F(PinTools, PinTable_FindsByNumberNameOrJson) {
  EXPECT_EQ(pins->find(2)->name(), "led");
  EXPECT_EQ(pins->find(std::string_view("fan"))->number(), 18);
  EXPECT_EQ(pins->find(99), nullptr);
  EXPECT_EQ(pins->find(std::string_view("LED")), nullptr);
  EXPECT_EQ((*pins->find(json(34)))->name(), "light");
  EXPECT_EQ((*pins->find(json("light")))->number(), 34);
  for (const json& bad : {json(2.5), json(true), json(nullptr), json::array({2}), json("99")}) {
    const auto found = pins->find(bad);
    ASSERT_FALSE(found) << bad.dump();
    EXPECT_EQ(found.error().name, "PIN_NOT_FOUND") << bad.dump();
  }
}

TEST_F(PinTools, DriveSafeValues_DrivesOnlyPinsThatHaveOne) {
  ok("gpio_write", {{"pin", 2}, {"value", true}});
  ok("gpio_write", {{"pin", 5}, {"value", true}});
  ok("pwm_write", {{"pin", 18}, {"duty", 200}, {"frequency_hz", 500}});
  pins->drive_safe_values();
  EXPECT_FALSE(*pin("led")->output->read());
  EXPECT_TRUE(*pin("relay")->output->read());  // no safe_value: left alone
  EXPECT_EQ(pin("fan")->pwm->state().duty, 0);
  EXPECT_EQ(pin("fan")->pwm->state().frequency_hz, 500u);
}

TEST_F(PinTools, DriveSafeValues_ScalesSafeDutyFrom255) {
  build(R"(
[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
safe_duty = 51
)");
  pins->drive_safe_values();
  EXPECT_DOUBLE_EQ(pin("fan")->pwm->state().duty, 0.2);
  EXPECT_EQ(pin("fan")->pwm->state().frequency_hz, 1000u);
}

TEST_F(PinTools, DescribePins_ListsEveryPinWithSamplingCapabilities) {
  const auto described = describe_pins(*pins);
  ASSERT_EQ(described.size(), 7u);
  EXPECT_EQ(described[1], json::parse(R"({"pin":2,"name":"led","type":"digital_output","description":"Onboard LED"})"));
  EXPECT_EQ(described[0].at("capabilities"), json::parse(R"({"summary":true,"buffer":false,"events":true})"));
  EXPECT_EQ(described[0].at("sampling"), json::parse(R"({"interval_ms":50,"buffer_size":0})"));
  EXPECT_EQ(described[5].at("capabilities"), json::parse(R"({"summary":true,"buffer":true,"events":true})"));
  EXPECT_EQ(described[6].at("capabilities"), json::parse(R"({"summary":false,"buffer":false,"events":false})"));
  EXPECT_FALSE(described[4].contains("capabilities"));
}

}  // namespace
}  // namespace mcpud::pins
