// SPDX-License-Identifier: MIT
// Error replies of well-formed requests: unknown methods, domain errors with
// their stable names in error.data.code, and invalid params naming the field.
#include <limits>

#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using Errors = SimDaemonTest;

std::string message_of(const json& reply) { return reply["error"].value("message", ""); }

TEST_F(Errors, UnknownMethodIsMethodNotFoundWithTheRequestId) {
  const json reply = client().call("no_such_method", json::object(), 41);
  EXPECT_EQ(reply["id"], 41);
  EXPECT_TRUE(is_error(reply, -32601));
  EXPECT_TRUE(contains(message_of(reply), "no_such_method"));
}

TEST_F(Errors, UnknownPinNumberOrNameIsPinNotFound) {
  const std::vector<std::pair<std::string, json>> calls{
      {"gpio_read", {{"pin", 99}}},
      {"gpio_write", {{"pin", 99}, {"value", true}}},
      {"pwm_write", {{"pin", 99}, {"duty", 1}}},
      {"adc_read", {{"pin", 99}}},
      {"get_pin_summary", {{"pin", "nope"}}},
      {"get_pin_buffer", {{"pin", "nope"}}},
      {"get_pin_events", {{"pin", 99}}},
  };
  for (const auto& [method, params] : calls) {
    const json reply = client().call(method, params, method);
    EXPECT_EQ(reply["id"], method);
    EXPECT_TRUE(is_error(reply, -32001, "PIN_NOT_FOUND")) << method;
  }
}

TEST_F(Errors, ToolOnAPinOfAnotherTypeIsWrongPinType) {
  const std::vector<std::pair<std::string, json>> calls{
      {"gpio_write", {{"pin", 34}, {"value", true}}},  // adc input
      {"gpio_write", {{"pin", 3}, {"value", true}}},   // digital input
      {"gpio_read", {{"pin", 18}}},                    // pwm output
      {"pwm_write", {{"pin", 2}, {"duty", 10}}},       // digital output
      {"adc_read", {{"pin", 4}}},                      // digital input
  };
  for (const auto& [method, params] : calls) {
    const json reply = client().call(method, params, 7);
    EXPECT_TRUE(is_error(reply, -32002, "WRONG_PIN_TYPE")) << method << " " << params.dump();
    EXPECT_TRUE(contains(message_of(reply), method)) << "the message says which tool needs what";
  }
}

TEST_F(Errors, SummaryOfAnUnsampledPinIsSamplingNotEnabled) {
  for (const json& pin : {json("led"), json(18)}) {
    const json reply = client().call("get_pin_summary", {{"pin", pin}}, 8);
    EXPECT_TRUE(is_error(reply, -32003, "SAMPLING_NOT_ENABLED")) << pin;
  }
}

TEST_F(Errors, IntegerValueForGpioWriteIsInvalidParamsNamingTheField) {
  const json reply = client().call("gpio_write", {{"pin", 2}, {"value", 1}}, 9);
  EXPECT_EQ(reply["id"], 9);
  EXPECT_TRUE(is_error(reply, -32602));
  EXPECT_EQ(message_of(reply), "params.value: expected boolean, got integer");
}

TEST_F(Errors, MissingPinIsInvalidParamsNamingTheField) {
  const json reply = client().call("gpio_read", json::object(), 10);
  EXPECT_TRUE(is_error(reply, -32602));
  EXPECT_TRUE(contains(message_of(reply), "params.pin"));
  EXPECT_TRUE(contains(message_of(reply), "missing"));
}

TEST_F(Errors, MissingParamsObjectIsLikeAnEmptyOne) {
  ASSERT_TRUE(client().send_line(R"({"jsonrpc":"2.0","id":11,"method":"adc_read"})"));
  const json reply = json::parse(client().read_line().value_or("null"));
  EXPECT_TRUE(is_error(reply, -32602));
  EXPECT_TRUE(contains(message_of(reply), "params.pin"));
}

TEST_F(Errors, AdditionalPropertyIsInvalidParamsNamingIt) {
  const json reply = client().call("gpio_write", {{"pin", 2}, {"value", true}, {"colour", "red"}}, 12);
  EXPECT_TRUE(is_error(reply, -32602));
  EXPECT_TRUE(contains(message_of(reply), "params.colour"));
}

TEST_F(Errors, PinNameWhereOnlyANumberIsAcceptedIsInvalidParams) {
  const json reply = client().call("pwm_write", {{"pin", "fan"}, {"duty", 1}}, 13);
  EXPECT_TRUE(is_error(reply, -32602));
  EXPECT_TRUE(contains(message_of(reply), "params.pin"));
}

TEST_F(Errors, WrongTypeOfOptionalArgumentIsInvalidParams) {
  const json reply = client().call("get_pin_buffer", {{"pin", "light"}, {"limit", "all"}}, 14);
  EXPECT_TRUE(is_error(reply, -32602));
  EXPECT_TRUE(contains(message_of(reply), "params.limit"));
  const json zero = client().call("get_pin_buffer", {{"pin", "light"}, {"limit", 0}}, 15);
  EXPECT_TRUE(is_error(zero, -32602));
}

TEST_F(Errors, ErrorsLeaveTheConnectionUsable) {
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(is_error(client().call("gpio_read", {{"pin", 99}}, i), -32001));
  EXPECT_EQ(client().result("gpio_read", {{"pin", 2}})["name"], "led");
}

// A pin number outside the int range must not be narrowed into an alias of a
// configured pin: 4294967298 (2^32 + 2) is not pin 2.
using PinLookup = SimDaemonTest;

TEST_F(PinLookup, PinNumberBeyondTheIntRangeIsPinNotFoundNotAnAliasOfPin2) {
  for (const json& pin : {json(4294967298LL), json(-4294967294LL)}) {
    const json write = client().call("gpio_write", {{"pin", pin}, {"value", true}}, 1);
    EXPECT_TRUE(is_error(write, -32001, "PIN_NOT_FOUND")) << "pin " << pin;
    const json read = client().call("gpio_read", {{"pin", pin}}, 2);
    EXPECT_TRUE(is_error(read, -32001, "PIN_NOT_FOUND")) << "pin " << pin;
  }
  EXPECT_EQ(client().result("gpio_read", {{"pin", 2}})["value"], false) << "the led was written through an alias";
}

// A cursor beyond the newest sample (even 2^64 - 1) has lost nothing.
using BufferCursor = SimDaemonTest;

TEST_F(BufferCursor, GetPinBufferWithTheLargestSinceReportsNothingLost) {
  ASSERT_TRUE(eventually(
      [&] {
        return client().result("get_pin_buffer", {{"pin", "button"}}).value("count", 0) >= 1;
      },
      5s));
  const json reply =
      client().result("get_pin_buffer", {{"pin", "button"}, {"since", std::numeric_limits<std::uint64_t>::max()}});
  EXPECT_EQ(reply["count"], 0) << reply.dump();
  EXPECT_EQ(reply["lost"], 0) << reply.dump();
}

}  // namespace
}  // namespace mcpud::it
