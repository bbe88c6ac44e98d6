// SPDX-License-Identifier: MIT
// Unit tests of the pre-parse scan: repeated JSON-RPC members found where a
// request object sits (alone, in a batch, in the envelope's payload) and nowhere
// else, and keys repeated in an object inside a request's members.
#include "request_scan.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mcpud::rpc {
namespace {

using nlohmann::json;

std::vector<RepeatedMember> repeated(std::string_view text) { return scan_request_text(text).repeated; }

TEST(RequestScan, ARequestWithoutRepeatsHasNone) {
  EXPECT_TRUE(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"id":2,"method":3}})").empty());
  EXPECT_TRUE(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","note":"\"id\":1,\"id\":2"})").empty());
  EXPECT_TRUE(repeated(R"([{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"}])").empty())
      << "each element of a batch has its own members";
}

TEST(RequestScan, EachJsonRpcMemberRepeatedInALoneRequestIsFound) {
  for (const std::string key : {"jsonrpc", "id", "method", "params"}) {
    const auto found = repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{},")" + key + R"(":1})");
    ASSERT_EQ(found.size(), 1u) << key;
    EXPECT_EQ(found[0], (RepeatedMember{false, std::nullopt, key})) << key;
  }
}

TEST(RequestScan, OtherRepeatedKeysOfTheRequestObjectAreNotItsBusiness) {
  EXPECT_TRUE(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","x":1,"x":2})").empty());
  EXPECT_TRUE(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","x":{"a":1,"a":2}})").empty())
      << "a member the engine does not read";
  EXPECT_EQ(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","payload":{"id":1,"id":2}})").size(), 1u)
      << "a payload member is reported; only the envelope's is marked";
}

TEST(RequestScan, AKeyRepeatedInsideParamsIsFoundAtAnyDepth) {
  EXPECT_EQ(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","arguments":{},"name":"b"}})"),
            (std::vector<RepeatedMember>{{false, std::nullopt, "params", "name"}}));
  EXPECT_EQ(repeated(R"({"params":{"arguments":{"x":[{"pin":1,"v":2,"pin":3}]}},"id":1})"),
            (std::vector<RepeatedMember>{{false, std::nullopt, "params", "pin"}}));
  EXPECT_EQ(repeated(R"({"id":{"a":1,"a":2},"params":{"b":1,"b":2}})"),
            (std::vector<RepeatedMember>{{false, std::nullopt, "id", "a"}}))
      << "one report per request";
  EXPECT_TRUE(repeated(R"({"params":{"a":{"x":1},"b":{"x":2},"x":3}})").empty()) << "each object has its own keys";
  EXPECT_EQ(repeated(R"({"params":{"x":{"":1,"":2}}})"),
            (std::vector<RepeatedMember>{{false, std::nullopt, "params", ""}}))
      << "the empty key is a key too";
}

TEST(RequestScan, ARepeatedKeyIsFoundAmongManyAndWhenEscaped) {
  std::string many = R"({"params":{)";
  for (int i = 0; i < 40; ++i) many += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  EXPECT_TRUE(repeated(many + R"("k40":0}})").empty());
  EXPECT_EQ(repeated(many + R"("k17":0}})"), (std::vector<RepeatedMember>{{false, std::nullopt, "params", "k17"}}));
  EXPECT_EQ(repeated(R"({"params":{"pin":1,"p\u0069n":2}})"),
            (std::vector<RepeatedMember>{{false, std::nullopt, "params", "p\\u0069n"}}))
      << "reported as written";
}

TEST(RequestScan, RepeatedKeysInBatchElementsAndThePayloadNameTheirRequest) {
  EXPECT_EQ(repeated(R"([{"id":1,"params":{}},{"id":2,"params":{"a":{"b":1,"b":1}}}])"),
            (std::vector<RepeatedMember>{{false, 1, "params", "b"}}));
  EXPECT_EQ(repeated(R"({"session_id":"s","type":"mcp","payload":{"id":1,"params":{"a":1,"a":1}}})"),
            (std::vector<RepeatedMember>{{true, std::nullopt, "params", "a"}}));
  EXPECT_TRUE(repeated(R"({"session_id":{"a":1,"a":2},"type":"mcp","payload":{"id":1}})").empty())
      << "the envelope's own members are no request's";
}

TEST(RequestScan, AnEnvelopeMemberRepeatedInTheRootIsFound) {
  for (const std::string key : {"session_id", "type", "payload"}) {
    const auto scan =
        scan_request_text(R"({"session_id":"s","type":"mcp","payload":{"id":1,"method":"m"},")" + key + R"(":1})");
    EXPECT_EQ(scan.repeated_envelope_member, key);
  }
  EXPECT_EQ(
      scan_request_text(R"({"session_id":"s","type":"mcp","payload":{"type":1,"type":2}})").repeated_envelope_member,
      "")
      << "only the root's own members";
}

TEST(RequestScan, EscapedKeysAreDecodedFirst) {
  EXPECT_EQ(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","\u0069d":2})"),
            (std::vector<RepeatedMember>{{false, std::nullopt, "id"}}));
  EXPECT_TRUE(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","i\"d":2})").empty());
}

TEST(RequestScan, BatchElementsAreNamedByTheirIndex) {
  const auto found = repeated(R"([1, {"jsonrpc":"2.0","id":1,"method":"m"} , {"id":2,"method":"a","method":"b"},)"
                              R"( [{"id":1,"id":2}], {"params":{},"params":{}, "id":3, "id":4}])");
  EXPECT_EQ(found, (std::vector<RepeatedMember>{{false, 2, "method"}, {false, 4, "params"}}))
      << "one report per object; an array inside a batch holds no requests";
}

TEST(RequestScan, TheEnvelopesPayloadIsARequestOrABatch) {
  EXPECT_EQ(repeated(R"({"session_id":"s","type":"mcp","payload":{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}})"),
            (std::vector<RepeatedMember>{{true, std::nullopt, "id"}}));
  EXPECT_EQ(repeated(R"({"session_id":"s","payload":[{"id":1},{"method":"a","method":"b"}],"type":"mcp"})"),
            (std::vector<RepeatedMember>{{true, 1, "method"}}));
  EXPECT_TRUE(repeated(R"({"session_id":"s","type":"mcp","other":{"id":1,"id":2},"payload":{"id":1}})").empty());
}

TEST(RequestScan, CountsDepthAsNestingDepthDid) {
  EXPECT_EQ(scan_request_text(R"({"a":[{"b":"]]}}"}],"c":[[[1]]]})").deepest, 4u);
  EXPECT_EQ(scan_request_text(std::string(100, '[')).deepest, 100u);
}

TEST(RequestScan, TextThatIsNoJsonStaysInBounds) {
  for (const std::string_view text : {"\"", "{\"id\":1,\"id", "{\"\\", "]]]}}},,,", "{,,,\"id\":1,\"id\":2", "[[[[,,,"})
    (void)scan_request_text(text);
}

TEST(RequestScan, MarkingPutsADiscardedValueWhereTheRequestReadsIt) {
  const std::string batch =
      R"([{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"a","method":"b"}])";
  auto message = json::parse(batch);
  mark_repeated_members(message, scan_request_text(batch).repeated);
  EXPECT_EQ(repeated_member(message[0], RequestMembers(message[0])).member, "");
  EXPECT_EQ(repeated_member(message[1], RequestMembers(message[1])).member, "method");
  EXPECT_FALSE(repeated_member(message[1], RequestMembers(message[1])).nested.has_value());
  EXPECT_EQ(message[1]["id"], 2);

  const std::string plain = R"({"jsonrpc":"2.0","id":1,"method":"m","payload":{"id":1,"id":2}})";
  auto request = json::parse(plain);
  mark_repeated_members(request, scan_request_text(plain).repeated);
  EXPECT_EQ(request["payload"]["id"], 2) << "not an envelope: its payload is left alone";

  const std::string nested = R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","name":"b"}})";
  auto call = json::parse(nested);
  mark_repeated_members(call, scan_request_text(nested).repeated);
  const auto marked = repeated_member(call, RequestMembers(call));
  EXPECT_EQ(marked.member, "params");
  EXPECT_EQ(marked.nested, "name");
  EXPECT_EQ(call["id"], 1);
}

}  // namespace
}  // namespace mcpud::rpc
