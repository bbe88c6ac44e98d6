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
};

TEST(PlainRequest, GivesWhatTheParserGivesForPlainRequests) {
  for (const std::string_view request : kPlainRequests) {
    const std::string line(request);  // string's constructor from string_view is explicit (g++ 14 holds to it)
    const auto plain = parse_plain_request(line);
    ASSERT_TRUE(plain.has_value()) << line;
    const json parsed = json::parse(line);
    EXPECT_EQ(*plain, parsed) << line;
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
    void handle(Client&, std::string_view method, json params, ToolReply reply) override {
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

}  // namespace
}  // namespace mcpud::rpc
