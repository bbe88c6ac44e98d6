// SPDX-License-Identifier: MIT
// Unit tests of the HTTP front door's rules: Origin, bearer token, Accept, session ids.
#include "http_policy.hpp"

#include <gtest/gtest.h>

#include <set>

namespace mcpud::http {
namespace {

TEST(HttpPolicy, Origin_LoopbackIsAccepted) {
  for (const auto origin : {"http://localhost", "http://localhost:6274", "https://127.0.0.1:8443", "http://[::1]:80",
                            "http://LocalHost:65535", "http://127.1.2.3:1"}) {
    EXPECT_EQ(judge_origin(origin, {}), OriginVerdict::accepted) << origin;
  }
}

TEST(HttpPolicy, Origin_OthersOnlyWhenListed) {
  EXPECT_EQ(judge_origin("http://evil.example", {}), OriginVerdict::not_allowed);
  EXPECT_EQ(judge_origin("http://localhost.evil.example", {}), OriginVerdict::not_allowed);
  EXPECT_EQ(judge_origin("http://127.0.0.1.nip.io", {}), OriginVerdict::not_allowed);
  EXPECT_EQ(judge_origin("null", {}), OriginVerdict::not_allowed);
  EXPECT_EQ(judge_origin("chrome-extension://abc", {}), OriginVerdict::not_allowed);
  EXPECT_EQ(judge_origin("https://app.example", {"https://app.example"}), OriginVerdict::accepted);
  EXPECT_EQ(judge_origin("https://app.example:1", {"https://app.example"}), OriginVerdict::not_allowed);
}

TEST(HttpPolicy, Origin_NotSchemeHostPortIsMalformed) {
  for (const auto origin : {"", "localhost", "http://127.0.0.1:8080@evil.example", "http://localhost:@evil.example",
                            "http://localhost:80/x", "http://127.0.0.1:99999", "http://localhost:0",
                            "http://[::1]:65536", "https://localhost:", "http://"}) {
    EXPECT_EQ(judge_origin(origin, {}), OriginVerdict::malformed) << origin;
  }
}

TEST(HttpPolicy, Accept_JsonAnEventStreamOrAWildcardCoveringThem) {
  EXPECT_TRUE(accepts_mcp_reply("")) << "no Accept header takes anything";
  EXPECT_TRUE(accepts_mcp_reply("application/json, text/event-stream"));
  EXPECT_TRUE(accepts_mcp_reply("application/json"));
  EXPECT_TRUE(accepts_mcp_reply("text/event-stream"));
  EXPECT_TRUE(accepts_mcp_reply("*/*"));
  EXPECT_TRUE(accepts_mcp_reply("text/html, application/*;q=0.8"));
  EXPECT_TRUE(accepts_mcp_reply("Application/JSON; charset=utf-8"));
  EXPECT_TRUE(accepts_mcp_reply(" text/* "));
  EXPECT_FALSE(accepts_mcp_reply("text/html"));
  EXPECT_FALSE(accepts_mcp_reply("image/png, text/plain"));
  EXPECT_FALSE(accepts_mcp_reply("application/json;q=0")) << "q=0 is a refusal";
  EXPECT_FALSE(accepts_mcp_reply("application/json; Q=0.000, text/html"));
  EXPECT_FALSE(accepts_mcp_reply("application/jsonx"));
  EXPECT_TRUE(accepts_mcp_reply("application/json;q=nonsense")) << "only q=0 refuses";
  EXPECT_TRUE(accepts_mcp_reply("application/json;q=0.001"));
}

TEST(HttpPolicy, ContentType_JsonInAnyCaseWithOrWithoutParameters) {
  EXPECT_TRUE(is_json_media_type("application/json"));
  EXPECT_TRUE(is_json_media_type("APPLICATION/JSON"));
  EXPECT_TRUE(is_json_media_type("application/json;charset=utf-8"));
  EXPECT_TRUE(is_json_media_type("application/json ; charset=utf-8"));
  EXPECT_FALSE(is_json_media_type(""));
  EXPECT_FALSE(is_json_media_type("text/plain"));
  EXPECT_FALSE(is_json_media_type("application/jsonp"));
}

TEST(HttpPolicy, Bearer_RequiredOnlyWhenConfigured) {
  EXPECT_TRUE(bearer_accepted("", ""));
  EXPECT_TRUE(bearer_accepted("Bearer s3cret", "s3cret"));
  EXPECT_FALSE(bearer_accepted("", "s3cret"));
  EXPECT_FALSE(bearer_accepted("Bearer s3creT", "s3cret"));
  EXPECT_FALSE(bearer_accepted("Basic s3cret", "s3cret"));
  EXPECT_FALSE(bearer_accepted("Bearer s3cret2", "s3cret"));
  EXPECT_TRUE(bearer_accepted("bearer s3cret", "s3cret")) << "the scheme is case-insensitive";
  EXPECT_TRUE(bearer_accepted("BEARER  s3cret", "s3cret"));
  EXPECT_FALSE(bearer_accepted("Bearers3cret", "s3cret"));
}

TEST(HttpPolicy, SessionIds_AreLongHexAndDistinct) {
  std::set<std::string> ids;
  for (int i = 0; i < 100; ++i) {
    const auto id = new_session_id();
    EXPECT_EQ(id.size(), 32u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 100u);
}

}  // namespace
}  // namespace mcpud::http
