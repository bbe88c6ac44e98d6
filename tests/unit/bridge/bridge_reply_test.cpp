// SPDX-License-Identifier: MIT
// Unit tests of reading device lines and matching replies to calls in flight.
#include <gtest/gtest.h>

#include "call_table.hpp"
#include "device_reply.hpp"

namespace mcpud::bridge {
namespace {

using nlohmann::json;
using Kind = DeviceLine::Kind;

TEST(DeviceLine, ReplyEndingInCarriageReturnIsRead) {
  const auto line = parse_device_line("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"pin\":2,\"value\":true}}\r", "uno");
  ASSERT_EQ(line.kind, Kind::Reply);
  EXPECT_EQ(line.id, 7);
  ASSERT_TRUE(line.outcome);
  EXPECT_EQ((*line.outcome)["value"], true);
}

TEST(DeviceLine, BootNoiseAndDebugPrintsAreNoise) {
  for (const char* text : {"ets Jun  8 2016 00:22:57", "rst:0x1 (POWERON_RESET)", "", "{broken", "[1, 2]", "42"}) {
    EXPECT_EQ(parse_device_line(text, "uno").kind, Kind::Noise) << text;
  }
}

TEST(DeviceLine, ReplyGluedToAnUnterminatedBannerIsStillRead) {
  const auto line = parse_device_line("\x01garbage{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", "uno");
  EXPECT_EQ(line.kind, Kind::Reply);
  EXPECT_EQ(line.id, 3);
}

TEST(DeviceLine, ErrorWithIdZeroOrNullIsAnIdZeroError) {
  EXPECT_EQ(parse_device_line(R"({"jsonrpc":"2.0","id":0,"error":{"code":-32700,"message":"Parse error"}})", "u").kind,
            Kind::IdZeroError);
  EXPECT_EQ(parse_device_line(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}})", "u").kind,
            Kind::IdZeroError);
  EXPECT_EQ(parse_device_line(R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}})", "u").kind,
            Kind::IdZeroError);
}

TEST(DeviceLine, JsonThatIsNoReplyIsUnsolicited) {
  EXPECT_EQ(parse_device_line(R"({"jsonrpc":"2.0","method":"hello"})", "u").kind, Kind::Unsolicited);
  EXPECT_EQ(parse_device_line(R"({"jsonrpc":"2.0","id":"a","result":1})", "u").kind, Kind::Unsolicited);
  EXPECT_EQ(parse_device_line(R"({"id":1,"result":1,"error":{}})", "u").kind, Kind::Unsolicited);
}

TEST(DeviceError, ReferenceFirmwareMessagesMapToDomainErrors) {
  const auto code_of = [](const char* message) {
    return device_error({{"code", -32602}, {"message", message}}, "uno").name;
  };
  EXPECT_EQ(code_of("Pin not found"), "PIN_NOT_FOUND");
  EXPECT_EQ(code_of("Wrong pin type"), "WRONG_PIN_TYPE");
  EXPECT_EQ(code_of("Summary not enabled for this pin"), "SAMPLING_NOT_ENABLED");
  EXPECT_EQ(code_of("Bad params"), "DEVICE_ERROR");
  const auto error = device_error({{"code", -32602}, {"message", "Bad params"}}, "uno");
  EXPECT_EQ(error.message, "uno: Bad params (device code -32602)");
  EXPECT_EQ(device_error({{"code", -32601}, {"message", "Method not found"}}, "uno").code, -32601);
  EXPECT_EQ(device_error(json::object(), "uno").name, "DEVICE_ERROR");
}

CallTable::Call call(CallTable& table, std::vector<ToolResult>& replies,
                     std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  const auto id = table.next_id();
  return {id, "request " + std::to_string(id) + "\n", [&replies](ToolResult r) { replies.push_back(std::move(r)); },
          CallTable::Clock::now() + timeout, false};
}

TEST(CallTable, RepliesAreMatchedByIdInAnyOrder) {
  CallTable table(8);
  std::vector<ToolResult> replies;
  auto first = call(table, replies);
  table.insert(std::move(first));
  auto second = call(table, replies);
  table.insert(std::move(second));
  EXPECT_EQ(table.size(), 2u);
  auto answered = table.take(2);
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->line, "request 2\n");
  EXPECT_FALSE(table.take(2)) << "a second reply with the same id matches nothing";
  EXPECT_FALSE(table.take(99));
  EXPECT_TRUE(table.take(1));
  EXPECT_EQ(table.size(), 0u);
}

TEST(CallTable, IdsStayWithinSixteenBitsAndSkipIdsInFlight) {
  CallTable table(4);
  std::vector<ToolResult> replies;
  table.insert(call(table, replies));  // id 1 stays in flight
  std::int64_t id = 0;
  for (int i = 0; i < CallTable::kMaxId; ++i) {
    id = table.next_id();
    EXPECT_GE(id, 1);
    EXPECT_LE(id, CallTable::kMaxId);
  }
  EXPECT_NE(table.next_id(), 1) << "an id in flight is never handed out again";
}

TEST(CallTable, IdZeroErrorResendsTheOnlyCallInFlightOnce) {
  CallTable table(8);
  std::vector<ToolResult> replies;
  table.insert(call(table, replies));
  const auto again = table.resend_after_id_zero_error("Parse error");
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, "request 1\n");
  EXPECT_FALSE(table.resend_after_id_zero_error("Invalid Request")) << "only once";
  EXPECT_EQ(table.size(), 1u) << "the tail's error of a split request does not fail the resend";
  const auto resent = table.take(1);
  ASSERT_TRUE(resent);
  EXPECT_EQ(resent->unread_error, "Invalid Request") << "kept for the timeout message";
}

TEST(CallTable, IdZeroErrorWithSeveralCallsInFlightResendsNothing) {
  CallTable table(8);
  std::vector<ToolResult> replies;
  table.insert(call(table, replies));
  table.insert(call(table, replies));
  EXPECT_FALSE(table.resend_after_id_zero_error("Parse error"));
  EXPECT_EQ(table.size(), 2u);
}

TEST(CallTable, ExpiredCallsAreTakenByDeadline) {
  CallTable table(8);
  std::vector<ToolResult> replies;
  table.insert(call(table, replies, std::chrono::milliseconds(0)));
  table.insert(call(table, replies, std::chrono::hours(1)));
  const auto expired = table.take_expired(CallTable::Clock::now());
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].id, 1);
  EXPECT_EQ(table.size(), 1u);
  ASSERT_TRUE(table.earliest_deadline());
  EXPECT_EQ(table.take_all().size(), 1u);
  EXPECT_FALSE(table.earliest_deadline());
}

TEST(CallTable, IsFullAtItsBound) {
  CallTable table(2);
  std::vector<ToolResult> replies;
  table.insert(call(table, replies));
  EXPECT_FALSE(table.full());
  table.insert(call(table, replies));
  EXPECT_TRUE(table.full());
}

}  // namespace
}  // namespace mcpud::bridge
