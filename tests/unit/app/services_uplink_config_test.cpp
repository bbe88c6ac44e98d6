// SPDX-License-Identifier: MIT
// The [uplink.services] table of mcpud.toml: defaults, hidden secrets, errors.
#include <gtest/gtest.h>

#include "config.hpp"

namespace mcpud::config {
namespace {

TEST(ServicesUplinkConfig, ReadsTheTableWithDefaults) {
  auto config = parse("[uplink.services]\nserver = \"ai.example.com:8443\"\ntoken = \"t\"\n", "test.toml");
  ASSERT_TRUE(config) << config.error();
  const auto& s = config->uplink.services;
  EXPECT_TRUE(s.enabled());
  EXPECT_EQ(s.host, "ai.example.com");
  EXPECT_EQ(s.port, 8443);
  EXPECT_EQ(s.ping_interval_s, 120u);
  EXPECT_EQ(s.task_id, "mcp00001");
  EXPECT_EQ(s.max_frame_bytes, 1024u * 1024u);
  EXPECT_FALSE(parse("", "test.toml")->uplink.services.enabled());
  // --check-config prints the resolved document: the token stays out of it.
  EXPECT_EQ(config->resolved["uplink"]["services"]["token"], "(hidden)");
  EXPECT_EQ(s.token, "t");
}

TEST(ServicesUplinkConfig, ErrorsNameTheKey) {
  const auto error = [](const std::string& toml) {
    auto e = parse(toml, "test.toml").error();
    return e.starts_with("test.toml: ") ? e.substr(11) : e;
  };
  EXPECT_EQ(error("[uplink.services]\nserver = \"host\"\n"),
            "uplink.services.server: expected host:port, e.g. ai.example.com:8085, got 'host'");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\n"),
            "uplink.services.token: missing; give token or token_file (AUTH needs one)");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:99999\"\n"),
            "uplink.services.server: expected host:port, e.g. ai.example.com:8085, got 'h:99999'");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\ntoken = \"a\"\ntoken_file = \"/x\"\n"),
            "uplink.services.token_file: give token or token_file, not both");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\ntoken_file = \"/nonexistent/token\"\n"),
            "uplink.services.token_file: /nonexistent/token: cannot open the file: No such file or directory");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\ntoken = \"a\"\ntask_id = \"00000000\"\n"),
            "uplink.services.task_id: 00000000 is kept for system messages");
  EXPECT_TRUE(error("[uplink.services]\nserver = \"h:1\"\nping_interval_s = 400\n")
                  .starts_with("uplink.services.ping_interval_s"));
}

}  // namespace
}  // namespace mcpud::config
