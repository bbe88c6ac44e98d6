// SPDX-License-Identifier: MIT
// Unit tests of the fast path for plain request lines: the value it gives is
// the parser's, and every line it is not sure of is left to the parser.
#include "plain_request.hpp"

#include <gtest/gtest.h>

#include <string>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::rpc {
namespace {

using nlohmann::json;

// Requests in the shapes hosts send, and the edge cases of each member.
const std::string_view kPlainRequests[] = {
    R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gpio_write","arguments":{"pin":2,"value":true}}})",
    R"( { "method" : "gpio_write" , "params" : {"pin":2,"value":false} , "id" : -7 , "jsonrpc" : "2.0" } )",
    "{\"jsonrpc\":\"2.0\",\t\"id\":\"abc-1\",\r\n\"method\":\"ping\"}",
    R"({"jsonrpc":"2.0","id":0,"method":"m","params":{"s":"} ] { \" \\ \u00e9","a":[1,{"b":[]}]}})",
    R"({"jsonrpc":"2.0","id":123456789012345678,"method":"m","params":{}})",
    R"({"jsonrpc":"2.0","id":-0,"method":"m"})",
    R"({"jsonrpc":"1.0","method":"m"})",
    R"({"id":5,"method":"m"})",
    // params the reader builds itself, without the parser.
    R"({"jsonrpc":"2.0","id":2,"method":"m","params":{"n":-12,"u":0,"big":999999999999999999,"t":true,"f":false,"z":null}})",
    R"({"jsonrpc":"2.0","id":3,"method":"m","params":{ "a" : [ 1 , [ ] , { } , "s" , [ -0 ] ] , "o" : { "" : { "x" : "y z" } } }})",
    R"({"jsonrpc":"2.0","id":4,"method":"m","params":{"k":1,"k":2,"j":[true,false,null]}})",
    // ... and those it leaves to the parser: fractions, exponents, long integers, escapes, UTF-8.
    R"({"jsonrpc":"2.0","id":5,"method":"m","params":{"v":1.5,"w":[2e3]}})",
    R"({"jsonrpc":"2.0","id":6,"method":"m","params":{"v":12345678901234567890,"w":-1234567890123456789}})",
    R"({"jsonrpc":"2.0","id":7,"method":"m","params":{"s":"a\nb","t":"\u00e9t\u00e9","u":"été"}})",
    R"({"jsonrpc":"2.0","id":8,"method":"m","params":{"deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}})",
};

// Whether `a` and `b` hold the same values of the same types all the way down
// (json's == takes 2 and 2u for equal; a reply echoes them alike only if typed alike).
bool same_types(const json& a, const json& b) {
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()) || !same_types(it.value(), b.at(it.key()))) return false;
    }
  } else if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_types(a[i], b[i])) return false;
    }
  }
  return a == b;
}

TEST(PlainRequest, GivesWhatTheParserGivesForPlainRequests) {
  for (const std::string_view request : kPlainRequests) {
    const std::string line(request);  // string's constructor from string_view is explicit (g++ 14 holds to it)
    const auto plain = parse_plain_request(line);
    ASSERT_TRUE(plain.has_value()) << line;
    const json parsed = json::parse(line);
    EXPECT_EQ(*plain, parsed) << line;
    EXPECT_TRUE(same_types(*plain, parsed)) << line << ": every number typed as the parser types it";
    if (parsed.contains("id")) {
      EXPECT_EQ(plain->at("id").type(), parsed.at("id").type()) << line << ": the same integer type, so ids echo alike";
    }
  }
}

TEST(PlainRequest, LeavesEveryOtherLineToTheParser) {
  for (const std::string line : {
           R"([{"jsonrpc":"2.0","id":1,"method":"m"}])",                                          // a batch
           R"({"session_id":"s","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"method":"m"}})",  // an envelope
           R"({"jsonrpc":"2.0","id":1,"method":"m","extra":1})",                                  // another member
           R"({"jsonrpc":"2.0","id":1,"id":2,"method":"m"})",                                     // a repeated member
           R"({"jsonrpc":"2.0","\u0069d":1,"method":"m"})",                                       // an escaped key
           R"({"jsonrpc":"2.0","id":1,"method":"tools\/call"})",                                  // an escaped string
           R"({"jsonrpc":"2.0","id":1,"method":"\u00e9"})",                                       // not ASCII
           R"({"jsonrpc":"2.0","id":1.0,"method":"m"})",                                          // not an integer
           R"({"jsonrpc":"2.0","id":1e2,"method":"m"})",
           R"({"jsonrpc":"2.0","id":01,"method":"m"})",
           R"({"jsonrpc":"2.0","id":1234567890123456789,"method":"m"})",  // 19 digits
           R"({"jsonrpc":"2.0","id":null,"method":"m"})",
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":[1]})",       // params not an object
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,}})",  // params not JSON
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1]})",
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":tru}})",
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,]}})",
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":01}})",
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":-}})",
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a" 1}})",
           R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"x
"}})",
           R"({"jsonrpc":"2.0","id":1,"method":"m"} x)",  // trailing bytes
           R"({"jsonrpc":"2.0","id":1,"method":"m",})",
           R"({"jsonrpc":"2.0","id":1,"method":"m")",
           R"({})",
           R"("just a string")",
           "",
       }) {
    EXPECT_FALSE(parse_plain_request(line).has_value()) << line;
  }
}

// Through the engine: a line on the fast path gets the reply the same request
// gets when a member nobody reads sends it through the parser.
TEST(PlainRequest, TheEngineAnswersAsItDoesForTheParsedLine) {
  class Echo final : public MethodHandler {
   public:
    void handle(Client&, std::string_view method, json&& params, ToolReply&& reply) override {
      if (method == "fail") return reply(std::unexpected(Error::invalid_params("params: no")));
      reply(json{{"method", std::string(method)}, {"params", std::move(params)}});
    }
  } echo;
  Engine engine(echo);
  const auto answer = [&](const std::string& line) {
    std::string out = "(none)";
    engine.handle_line(line, [&](std::string reply) { out = std::move(reply); });
    return out;
  };
  for (const std::string tail : {
           R"("jsonrpc":"2.0","id":42,"method":"m","params":{"pin":2,"value":true}})",
           R"("jsonrpc":"2.0","id":-3,"method":"m"})",
           R"("jsonrpc":"2.0","id":"x","method":"fail","params":{}})",
           R"("jsonrpc":"2.0","method":"m","params":{}})",  // a notification: no reply
           R"("jsonrpc":"1.0","id":1,"method":"m"})",
           R"("jsonrpc":"2.0","id":1,"params":{}})",
       }) {
    const std::string plain = "{" + tail;
    ASSERT_TRUE(parse_plain_request(plain).has_value()) << plain;
    EXPECT_EQ(answer(plain), answer(R"({"unread":0,)" + tail)) << plain;
  }
}

// A plain line skips the pre-parse scan only when it nests no deeper than the
// engine allows: deeper, it is refused as any other line is.
TEST(PlainRequest, ALineNestedDeeperThanTheEngineAllowsIsRefusedEvenWhenPlain) {
  class Served final : public MethodHandler {
   public:
    void handle(Client&, std::string_view, json&&, ToolReply&& reply) override {
      ++calls;
      reply(json::object());
    }
    int calls = 0;
  } served;
  Engine engine(served, EngineLimits{.max_depth = 3});
  std::string out;
  const auto respond = [&](std::string reply) { out = std::move(reply); };
  const std::string within = R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1]}})";
  ASSERT_EQ(read_plain_request(within)->depth, 3u);
  engine.handle_line(within, respond);
  EXPECT_EQ(out, R"({"jsonrpc":"2.0","id":1,"result":{}})");
  const std::string deeper = R"({"jsonrpc":"2.0","id":2,"method":"m","params":{"a":[[1]]}})";
  ASSERT_EQ(read_plain_request(deeper)->depth, 4u);
  engine.handle_line(deeper, respond);
  EXPECT_EQ(json::parse(out)["error"]["message"], "Invalid request: JSON nested deeper than 3 levels");
  EXPECT_EQ(served.calls, 1);
}

}  // namespace
}  // namespace mcpud::rpc
