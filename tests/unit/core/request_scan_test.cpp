// SPDX-License-Identifier: MIT
// Unit tests of the pre-parse scan: repeated JSON-RPC members found where a
// request object sits (alone, in a batch, in the envelope's payload) and nowhere else.
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

TEST(RequestScan, OtherRepeatedKeysAndRepeatsInsideParamsAreNotItsBusiness) {
  EXPECT_TRUE(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","x":1,"x":2})").empty());
  EXPECT_TRUE(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"id":1,"id":2}})").empty());
  EXPECT_EQ(repeated(R"({"jsonrpc":"2.0","id":1,"method":"m","payload":{"id":1,"id":2}})").size(), 1u)
      << "a payload member is reported; only the envelope's is marked";
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
  EXPECT_EQ(repeated_member(message[0], RequestMembers(message[0])), "");
  EXPECT_EQ(repeated_member(message[1], RequestMembers(message[1])), "method");
  EXPECT_EQ(message[1]["id"], 2);

  const std::string plain = R"({"jsonrpc":"2.0","id":1,"method":"m","payload":{"id":1,"id":2}})";
  auto request = json::parse(plain);
  mark_repeated_members(request, scan_request_text(plain).repeated);
  EXPECT_EQ(request["payload"]["id"], 2) << "not an envelope: its payload is left alone";
}

}  // namespace
}  // namespace mcpud::rpc
