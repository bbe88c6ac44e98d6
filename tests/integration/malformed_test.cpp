// SPDX-License-Identifier: MIT
// A table of malformed and unusual lines, each with the exact reply mcpud must
// give (or none). After every line a sentinel request follows in the same write:
// its reply must be the very next line, which proves "no reply" really means none
// and that the connection survived.
#include <optional>
#include <string>

#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

struct MalformedCase {
  const char* name;                  // the test name suffix, a sentence
  std::string line;                  // sent as one line
  std::optional<std::string> reply;  // the exact reply as JSON text; nullopt: no reply at all
};

std::ostream& operator<<(std::ostream& out, const MalformedCase& c) { return out << c.name; }

const std::string kSentinel =
    R"({"jsonrpc":"2.0","id":"sentinel","method":"gpio_write","params":{"pin":2,"value":false}})";
const std::string kSentinelReply = R"({"jsonrpc":"2.0","id":"sentinel","result":{"pin":2,"name":"led","value":false}})";

std::string error_reply(const std::string& id, int code, const std::string& message) {
  return R"({"jsonrpc":"2.0","id":)" + id + R"(,"error":{"code":)" + std::to_string(code) + R"(,"message":)" +
         json(message).dump() + "}}";
}
std::string parse_error() { return error_reply("null", -32700, "Parse error: not valid JSON"); }
std::string not_an_object() { return error_reply("null", -32600, "Invalid request: expected an object"); }
std::string bad_id() { return error_reply("null", -32600, "Invalid request: id must be a string, an integer or null"); }
std::string bad_version(const std::string& id) {
  return error_reply(id, -32600, R"(Invalid request: jsonrpc must be "2.0")");
}
std::string bad_method(const std::string& id) {
  return error_reply(id, -32600, "Invalid request: method must be a string");
}
std::string bad_params(const std::string& id) {
  return error_reply(id, -32602, "Invalid params: params must be an object");
}
std::string led_written(const std::string& id, bool value) {
  return R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{"pin":2,"name":"led","value":)" + (value ? "true" : "false") +
         "}}";
}
std::string write_led(const std::string& id_member) {
  return R"({"jsonrpc":"2.0",)" + id_member + R"("method":"gpio_write","params":{"pin":2,"value":true}})";
}
std::string nested_arrays(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

const MalformedCase kCases[] = {
    // Not JSON at all.
    {"TruncatedJsonIsAParseErrorWithNullId", R"({"jsonrpc":"2.0","id":1,"method":)", parse_error()},
    {"TrailingGarbageIsAParseError", R"({"jsonrpc":"2.0","id":1,"method":"get_info"} x)", parse_error()},
    {"PlainTextIsAParseError", "hello mcpud", parse_error()},
    {"InvalidUtf8IsAParseError", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"get_info\"}", parse_error()},
    // JSON, but not a request object.
    {"NumberIsAnInvalidRequest", "42", not_an_object()},
    {"StringIsAnInvalidRequest", R"("x")", not_an_object()},
    {"NullIsAnInvalidRequest", "null", not_an_object()},
    {"BooleanIsAnInvalidRequest", "true", not_an_object()},
    // The envelope.
    {"MissingJsonrpcIsAnInvalidRequestWithTheId", R"({"id":1,"method":"get_info"})", bad_version("1")},
    {"Jsonrpc10IsAnInvalidRequest", R"({"jsonrpc":"1.0","id":2,"method":"get_info"})", bad_version("2")},
    {"JsonrpcAsNumberIsAnInvalidRequest", R"({"jsonrpc":2.0,"id":3,"method":"get_info"})", bad_version("3")},
    {"MethodNotAStringIsAnInvalidRequest", R"({"jsonrpc":"2.0","id":4,"method":7})", bad_method("4")},
    {"MissingMethodIsAnInvalidRequest", R"({"jsonrpc":"2.0","id":5})", bad_method("5")},
    {"UnknownMethodIsMethodNotFound", R"({"jsonrpc":"2.0","id":6,"method":"nope"})",
     error_reply("6", -32601, "Method not found: nope")},
    // Ids.
    {"FloatIdIsAnInvalidRequestWithNullId", write_led(R"("id":1.5,)"), bad_id()},
    {"ObjectIdIsAnInvalidRequestWithNullId", write_led(R"("id":{"n":1},)"), bad_id()},
    {"BooleanIdIsAnInvalidRequestWithNullId", write_led(R"("id":true,)"), bad_id()},
    {"ArrayIdIsAnInvalidRequestWithNullId", write_led(R"("id":[1],)"), bad_id()},
    {"StringIdIsEchoed", write_led(R"("id":"abc-1",)"), led_written(R"("abc-1")", true)},
    {"NegativeIdIsEchoed", write_led(R"("id":-7,)"), led_written("-7", true)},
    {"LargestUnsignedIdIsEchoedExactly", write_led(R"("id":18446744073709551615,)"),
     led_written("18446744073709551615", true)},
    {"NullIdIsARequestAndGetsAReply", write_led(R"("id":null,)"), led_written("null", true)},
    // Params.
    {"ParamsArrayIsInvalidParams", R"({"jsonrpc":"2.0","id":7,"method":"gpio_write","params":[2,true]})",
     bad_params("7")},
    {"ParamsStringIsInvalidParams", R"({"jsonrpc":"2.0","id":8,"method":"get_info","params":"all"})", bad_params("8")},
    // A JSON-RPC member named twice: the parser would keep the last without a word.
    {"RepeatedMethodIsAnInvalidRequestNamingIt",
     R"({"jsonrpc":"2.0","id":20,"method":"get_info","method":"gpio_write","params":{"pin":2,"value":true}})",
     error_reply("20", -32600, R"(Invalid request: member "method" appears more than once)")},
    {"RepeatedIdIsAnInvalidRequestWithNullId", write_led(R"("id":21,"id":22,)"),
     error_reply("null", -32600, R"(Invalid request: member "id" appears more than once)")},
    {"RepeatedParamsIsAnInvalidRequestNamingIt",
     R"({"jsonrpc":"2.0","id":23,"method":"gpio_write","params":{"pin":2,"value":true},"params":{"pin":2}})",
     error_reply("23", -32600, R"(Invalid request: member "params" appears more than once)")},
    {"RepeatedKeyInsideParamsIsInvalidParamsNamingIt",
     R"({"jsonrpc":"2.0","id":26,"method":"gpio_write","params":{"pin":2,"value":false,"value":true}})",
     error_reply("26", -32602, R"(Invalid params: key "value" appears more than once in one object)")},
    {"RepeatedKeyInsideANotificationsParamsIsSilentlyRefused",
     R"({"jsonrpc":"2.0","method":"gpio_write","params":{"pin":2,"value":false,"value":true}})", std::nullopt},
    {"RepeatedEnvelopeMemberIsAnInvalidRequest",
     R"({"session_id":1,"type":"mcp","payload":{"jsonrpc":"2.0","id":27,"method":"get_info"},)"
     R"("payload":{"jsonrpc":"2.0","id":28,"method":"gpio_write","params":{"pin":2,"value":true}}})",
     error_reply("null", -32600, R"(Invalid request: envelope member "payload" appears more than once)")},
    {"RepeatedMemberInABatchRefusesOnlyThatElement",
     "[" + write_led(R"("id":24,)") + R"(,{"jsonrpc":"2.0","jsonrpc":"2.0","id":25,"method":"get_info"}])",
     "[" + led_written("24", true) + "," +
         error_reply("25", -32600, R"(Invalid request: member "jsonrpc" appears more than once)") + "]"},
    // Notifications: never a reply, whatever happens.
    {"NotificationGetsNoReply", write_led(""), std::nullopt},
    {"NotificationOfAnUnknownMethodGetsNoReply", R"({"jsonrpc":"2.0","method":"nope"})", std::nullopt},
    {"NotificationWithInvalidParamsGetsNoReply", R"({"jsonrpc":"2.0","method":"gpio_write","params":{"pin":2}})",
     std::nullopt},
    // Batches.
    {"EmptyBatchIsAnInvalidRequest", "[]", error_reply("null", -32600, "Invalid request: empty batch")},
    {"BatchOfOneInvalidElementGetsAnArrayOfOneError", "[1]", "[" + not_an_object() + "]"},
    {"BatchMixingRequestNotificationAndInvalidElementAnswersRequestAndInvalidElement",
     "[" + write_led(R"("id":10,)") + "," + write_led("") + ",5]",
     "[" + led_written("10", true) + "," + not_an_object() + "]"},
    {"BatchOfOnlyNotificationsGetsNoReplyAtAll",
     "[" + write_led("") + "," + R"({"jsonrpc":"2.0","method":"get_info"})" + "]", std::nullopt},
    {"BatchOfMoreThan1000ElementsIsAnInvalidRequest",
     "[" +
         [] {
           std::string elements = "1";
           for (int i = 1; i < 1001; ++i) elements += ",1";
           return elements;
         }() +
         "]",
     error_reply("null", -32600, "Invalid request: batch of 1001 exceeds 1000")},
    // The examples of the JSON-RPC 2.0 specification.
    {"SpecExampleInvalidRequestObjectGetsNullIdError", R"({"jsonrpc": "2.0", "method": 1, "params": "bar"})",
     bad_method("null")},
    {"SpecExampleInvalidBatchGetsOneErrorPerElement", "[1,2,3]",
     "[" + not_an_object() + "," + not_an_object() + "," + not_an_object() + "]"},
    {"SpecExampleInvalidJsonBatchIsOneParseError",
     R"([{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method")",
     parse_error()},
    // Nesting.
    {"JsonNestedDeeperThan64LevelsIsAnInvalidRequest", nested_arrays(65),
     error_reply("null", -32600, "Invalid request: JSON nested deeper than 64 levels")},
    {"JsonNested64LevelsIsStillHandledAsABatch", nested_arrays(64), "[" + not_an_object() + "]"},
    {"BracketsInsideStringsDoNotCountAsNesting",
     R"({"jsonrpc":"2.0","id":11,"method":"gpio_write","params":{"pin":2,"value":true},"note":")" + nested_arrays(70) +
         R"("})",
     led_written("11", true)},
    {"EscapedQuotesInsideStringsDoNotEndThem",
     R"({"jsonrpc":"2.0","id":12,"method":"gpio_write","params":{"pin":2,"value":true},"note":"\"\\\")" +
         nested_arrays(70) + R"("})",
     led_written("12", true)},
    // Replies sent by the client: mcpud sends no requests, so it ignores them.
    {"ReplyWithResultFromTheClientIsIgnored", R"({"jsonrpc":"2.0","id":7,"result":{"ok":true}})", std::nullopt},
    {"ReplyWithErrorFromTheClientIsIgnored", R"({"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}})",
     std::nullopt},
    {"BatchOfClientRepliesIsIgnored", R"([{"jsonrpc":"2.0","id":1,"result":0},{"jsonrpc":"2.0","id":2,"result":1}])",
     std::nullopt},
};

class MalformedRequest : public SimDaemonTest, public ::testing::WithParamInterface<MalformedCase> {};

TEST_P(MalformedRequest, GetsExactlyTheExpectedReplyAndTheConnectionLivesOn) {
  const MalformedCase& c = GetParam();
  ASSERT_TRUE(client().send_raw(c.line + "\n" + kSentinel + "\n"));
  if (c.reply) {
    const auto line = client().read_line();
    ASSERT_TRUE(line) << "no reply to: " << c.line;
    EXPECT_EQ(line->find('\r'), std::string::npos);
    const json actual = json::parse(*line, nullptr, false);
    ASSERT_FALSE(actual.is_discarded()) << "reply is not JSON: " << *line;
    EXPECT_EQ(actual, json::parse(*c.reply)) << "request: " << c.line << "\nreply:   " << *line;
  }
  const auto next = client().read_line();
  ASSERT_TRUE(next) << "the sentinel got no reply after: " << c.line;
  EXPECT_EQ(json::parse(*next, nullptr, false), json::parse(kSentinelReply))
      << (c.reply ? "an extra reply to: " : "a reply where none was due to: ") << c.line;
}

INSTANTIATE_TEST_SUITE_P(Table, MalformedRequest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<MalformedCase>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace mcpud::it
