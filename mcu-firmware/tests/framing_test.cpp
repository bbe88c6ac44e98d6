// SPDX-License-Identifier: MIT
// Line framing and request checks of the firmware: partial lines, garbage, long lines, every protocol error.
#include "device_fixture.hpp"

namespace mcpu_test {
namespace {

const std::string kInfo = R"({"jsonrpc":"2.0","id":7,"method":"get_info"})";

json errorOf(const json& reply) { return reply.at("error"); }

TEST_F(DeviceTest, ByteByByteDelivery_KeepsPartialLinesAcrossLoops) {
  const std::string line = R"({"jsonrpc":"2.0","id":3,"method":"gpio_write","params":{"pin":13,"value":true}})";
  auto lines = sendRaw(line + "\n", 1);
  ASSERT_EQ(lines.size(), 1u);
  const json reply = json::parse(lines[0]);
  EXPECT_EQ(reply["id"], 3);
  EXPECT_EQ(reply["result"], (json{{"pin", 13}, {"name", "led"}, {"value", true}}));
  EXPECT_EQ(mcpu_host::level(13), 1);
}

TEST_F(DeviceTest, SeveralRequestsInOneChunk_AreAnsweredInOrder) {
  std::string bytes;
  for (int id = 1; id <= 5; ++id)
    bytes += R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
             R"(,"method":"get_info"})"
             "\n";
  auto lines = sendRaw(bytes, 7);
  ASSERT_EQ(lines.size(), 5u);
  for (int id = 1; id <= 5; ++id) EXPECT_EQ(json::parse(lines[id - 1])["id"], id);
}

TEST_F(DeviceTest, CrLfAndBlankLines_AreAccepted) {
  auto lines = sendRaw("\r\n\n   \n" + kInfo + "\r\n");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(json::parse(lines[0])["result"]["device"], "test-dev");
}

TEST_F(DeviceTest, Garbage_GetsParseErrorWithNullIdAndLaterRequestsWork) {
  auto lines = sendRaw(std::string("\x01\xff\xfe garbage }{\n", 15) + "{\"jsonrpc\":\n" + kInfo + "\n");
  ASSERT_EQ(lines.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    const json reply = json::parse(lines[i]);
    EXPECT_TRUE(reply["id"].is_null());
    EXPECT_EQ(reply["error"]["code"], -32700);
    EXPECT_EQ(reply["error"]["message"].get<std::string>().rfind("Parse error: ", 0), 0u);
  }
  EXPECT_EQ(json::parse(lines[2])["id"], 7);
}

TEST_F(DeviceTest, ParseError_NamesWhatWasWrongAndWhere) {
  const json reply = call(R"({"jsonrpc":"2.0","id":1,"method":"get_info",})");
  EXPECT_EQ(errorOf(reply)["message"], "Parse error: expected a string key at byte 44");
  EXPECT_EQ(errorOf(call(R"({"a":"x)"))["message"], "Parse error: unterminated string at byte 7");
  EXPECT_EQ(errorOf(call(R"({"a":1} 2)"))["message"], "Parse error: unexpected data after the JSON value at byte 8");
}

TEST_F(DeviceTest, DeepNesting_IsRefusedNotRecursedInto) {
  const json reply = call(std::string(40, '[') + std::string(40, ']'));
  EXPECT_EQ(errorOf(reply)["code"], -32700);
  EXPECT_NE(errorOf(reply)["message"].get<std::string>().find("nested too deeply"), std::string::npos);
}

TEST_F(DeviceTest, OverlongLine_IsRefusedWholeAndTheNextLineWorks) {
  const std::string huge =
      R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":")" + std::string(2000, 'x') + "\"}}";
  auto lines = sendRaw(huge + "\n" + kInfo + "\n", 64);
  ASSERT_EQ(lines.size(), 2u);
  const json first = json::parse(lines[0]);
  EXPECT_TRUE(first["id"].is_null());
  EXPECT_EQ(first["error"]["code"], -32600);
  EXPECT_EQ(first["error"]["message"], "Invalid request: line longer than " + std::to_string(MCPU_LINE_MAX) + " bytes");
  EXPECT_EQ(first["error"]["data"]["code"], "LINE_TOO_LONG");
  EXPECT_EQ(json::parse(lines[1])["id"], 7);
}

TEST_F(DeviceTest, LineOfExactlyTheMaximum_IsAccepted) {
  std::string line = R"({"jsonrpc":"2.0","id":1,"method":"get_info","pad":")";
  line += std::string(MCPU_LINE_MAX - line.size() - 2, 'p') + "\"}";
  ASSERT_EQ(line.size(), static_cast<size_t>(MCPU_LINE_MAX));
  EXPECT_EQ(call(line)["result"]["device"], "test-dev");
}

TEST_F(DeviceTest, Batch_IsInvalidRequest) {
  const json reply = call("[" + kInfo + "]");
  EXPECT_TRUE(reply["id"].is_null());
  EXPECT_EQ(errorOf(reply)["code"], -32600);
}

TEST_F(DeviceTest, WrongOrMissingJsonrpc_IsInvalidRequestWithTheId) {
  for (const char* line : {R"({"id":4,"method":"get_info"})", R"({"jsonrpc":"1.0","id":4,"method":"get_info"})",
                           R"({"jsonrpc":2,"id":4,"method":"get_info"})"}) {
    const json reply = call(line);
    EXPECT_EQ(reply["id"], 4) << line;
    EXPECT_EQ(errorOf(reply)["code"], -32600) << line;
    EXPECT_EQ(errorOf(reply)["message"], "Invalid request: jsonrpc must be \"2.0\"") << line;
  }
}

TEST_F(DeviceTest, MissingMethod_IsInvalidRequest) {
  EXPECT_EQ(errorOf(call(R"({"jsonrpc":"2.0","id":1})"))["message"], "Missing method");
  EXPECT_EQ(errorOf(call(R"({"jsonrpc":"2.0","id":1,"method":5})"))["message"],
            "Invalid request: method must be a string");
}

TEST_F(DeviceTest, UnknownMethod_NamesTheMethod) {
  const json reply = call(R"({"jsonrpc":"2.0","id":1,"method":"self_destruct"})");
  EXPECT_EQ(errorOf(reply)["code"], -32601);
  EXPECT_EQ(errorOf(reply)["message"], "Method not found: self_destruct");
}

TEST_F(DeviceTest, ParamsThatAreNotAnObject_AreInvalidParams) {
  const json reply = call(R"({"jsonrpc":"2.0","id":1,"method":"gpio_read","params":[13]})");
  EXPECT_EQ(errorOf(reply)["code"], -32602);
  EXPECT_EQ(errorOf(reply)["message"], "Bad params: params must be an object");
}

TEST_F(DeviceTest, Ids_StringsAreEchoedAndOtherKindsRefused) {
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":"abc-1","method":"get_info"})")["id"], "abc-1");
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":-12,"method":"get_info"})")["id"], -12);
  for (const char* line :
       {R"({"jsonrpc":"2.0","id":{"a":1},"method":"get_info"})", R"({"jsonrpc":"2.0","id":1.5,"method":"get_info"})",
        R"({"jsonrpc":"2.0","id":[1],"method":"get_info"})"}) {
    const json reply = call(line);
    EXPECT_TRUE(reply["id"].is_null()) << line;
    EXPECT_EQ(errorOf(reply)["message"], "Invalid request: id must be an integer or a string") << line;
  }
}

TEST_F(DeviceTest, Notification_RunsButIsNotAnswered) {
  auto lines = sendRaw(R"({"jsonrpc":"2.0","method":"gpio_write","params":{"pin":13,"value":true}})"
                       "\n");
  EXPECT_TRUE(lines.empty());
  EXPECT_EQ(mcpu_host::level(13), 1);
}

}  // namespace
}  // namespace mcpu_test
