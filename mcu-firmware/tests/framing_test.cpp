// SPDX-License-Identifier: MIT
// Line framing and request checks of the firmware: partial lines, garbage, long lines, every protocol error.
#include <algorithm>

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

TEST_F(DeviceTest, InvalidUtf8InStrings_IsAParseErrorAndValidUtf8IsKept) {
  for (const char* bad : {"\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    const json reply = call(std::string(R"({"jsonrpc":"2.0","id":1,"method":"x)") + bad + "\"}");
    EXPECT_EQ(errorOf(reply)["code"], -32700);
    EXPECT_NE(errorOf(reply)["message"].get<std::string>().find("invalid UTF-8"), std::string::npos);
  }
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":1,"method":"gr\u00fcß"})")["error"]["message"],
            "Method not found: gr\\u00fcß");
  EXPECT_EQ(request("echo", {{"text", "25 °C 🌡"}})["result"]["text"], "25 °C 🌡");
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
  EXPECT_EQ(call(line + "\r")["result"]["device"], "test-dev");
  EXPECT_EQ(call(line + " ")["error"]["data"]["code"], "LINE_TOO_LONG");
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
    EXPECT_EQ(errorOf(reply)["message"], "Invalid request: id must be an integer or a string of at most 64 bytes")
        << line;
  }
}

TEST_F(DeviceTest, Notification_RunsButIsNotAnswered) {
  auto lines = sendRaw(R"({"jsonrpc":"2.0","method":"gpio_write","params":{"pin":13,"value":true}})"
                       "\n");
  EXPECT_TRUE(lines.empty());
  EXPECT_EQ(mcpu_host::level(13), 1);
}

// Random bytes and mangled requests: every line gets at most one reply, each reply is
// valid JSON-RPC, and the device still answers afterwards.
TEST_F(DeviceTest, RandomInput_NeverBreaksTheDevice) {
  const std::string seeds[] = {
      kInfo, R"({"jsonrpc":"2.0","id":2,"method":"get_pin_buffer","params":{"pin":"sensor","since":1}})",
      R"({"jsonrpc":"2.0","id":3,"method":"echo","params":{"text":"a\u00e9\"","count":2}})"};
  unsigned state = 12345;
  auto next = [&state] { return state = state * 1103515245u + 12345u, (state >> 16) & 0x7fff; };
  for (int round = 0; round < 3000; ++round) {
    std::string line = seeds[next() % 3];
    for (int edits = next() % 4; edits > 0; --edits) {
      const size_t at = next() % line.size();
      switch (next() % 3) {
        case 0:
          line[at] = static_cast<char>(next() % 256);
          break;
        case 1:
          line.erase(at, 1 + next() % 8);
          break;
        default:
          line.insert(at, 1 + next() % 3, "{}[]\",:0e-\x00"[next() % 12]);
          break;
      }
      if (line.empty()) line = "x";
    }
    line.erase(std::remove(line.begin(), line.end(), '\n'), line.end());
    const auto replies = sendRaw(line + "\n");
    ASSERT_LE(replies.size(), 1u) << line;
    for (const auto& r : replies) {
      const json reply = json::parse(r, nullptr, false);
      ASSERT_FALSE(reply.is_discarded()) << "reply is not JSON: " << r << " to: " << line;
      ASSERT_EQ(reply["jsonrpc"], "2.0");
      ASSERT_NE(reply.contains("result"), reply.contains("error")) << r;
    }
  }
  EXPECT_EQ(call(kInfo)["result"]["device"], "test-dev");
}

}  // namespace
}  // namespace mcpu_test
