// SPDX-License-Identifier: MIT
// [uplink.fleet] parsing and the fleet topic names (no broker needed).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "config.hpp"
#include "fleet_topics.hpp"

namespace {

using mcpud::config::parse;

std::string fleet(const std::string& lines) { return "device = \"dev\"\n[uplink.fleet]\n" + lines; }

TEST(FleetConfig, OffWithoutABroker) {
  auto config = parse("device = \"dev\"\n", "test");
  ASSERT_TRUE(config) << config.error();
  EXPECT_FALSE(config->uplink.fleet.enabled());
}

TEST(FleetConfig, ReadsEveryKeyWithDefaults) {
  auto config = parse(fleet("broker = \"10.0.0.5:8883\"\nmqtt_version = \"3.1.1\"\ntls = true\nusername = \"u\"\n"
                            "password = \"p\"\n"),
                      "test");
  ASSERT_TRUE(config) << config.error();
  const auto& f = config->uplink.fleet;
  EXPECT_TRUE(f.enabled());
  EXPECT_EQ(f.host, "10.0.0.5");
  EXPECT_EQ(f.port, 8883);
  EXPECT_FALSE(f.mqtt5);
  EXPECT_TRUE(f.tls);
  EXPECT_EQ(f.topic_prefix, "mcpud");
  EXPECT_EQ(f.keepalive_s, 30u);
  EXPECT_EQ(f.retry_max_ms, 30000u);
  EXPECT_EQ(f.password, "p");
}

TEST(FleetConfig, ErrorsNameTheKey) {
  auto expect_error = [](const std::string& lines, const std::string& needle) {
    auto config = parse(fleet(lines), "test");
    ASSERT_FALSE(config) << lines;
    EXPECT_NE(config.error().find(needle), std::string::npos) << config.error();
  };
  expect_error("broker = \"nohost\"", "uplink.fleet.broker: expected host:port, e.g. 192.168.1.10:1883, got 'nohost'");
  expect_error("broker = \"h:99999\"", "uplink.fleet.broker");
  expect_error("broker = \"h:1\"\ndevice = \"a/b\"", "uplink.fleet.device");
  expect_error("broker = \"h:1\"\ntopic_prefix = \"x/#\"", "uplink.fleet.topic_prefix");
  expect_error("broker = \"h:1\"\nmqtt_version = \"4\"", "uplink.fleet.mqtt_version");
  expect_error("broker = \"h:1\"\npassword_file = \"/nonexistent/secret\"\nusername = \"u\"",
               "uplink.fleet.password_file: /nonexistent/secret: cannot open the file");
  expect_error("broker = \"h:1\"\nca_file = \"/x\"", "uplink.fleet.tls");
  expect_error("broker = \"h:1\"\nkeepalive_s = 1", "uplink.fleet.keepalive_s");
}

TEST(FleetConfig, TheExampleParses) {
  std::ifstream in(std::string(MCPUD_SOURCE_DIR) + "/config/examples/fleet.toml");
  std::stringstream text;
  text << in.rdbuf();
  // Its password file exists only on a real board: the same config with the secret inline.
  auto toml = text.str();
  const std::string file_line = "password_file = \"/etc/mcpud/mqtt-password\"";
  ASSERT_NE(toml.find(file_line), std::string::npos);
  toml.replace(toml.find(file_line), file_line.size(), "password = \"x\"");
  auto config = parse(toml, "fleet.toml");
  ASSERT_TRUE(config) << config.error();
  const auto& f = config->uplink.fleet;
  EXPECT_EQ(f.host, "192.168.1.10");
  EXPECT_EQ(f.port, 8883);
  EXPECT_TRUE(f.tls);
  EXPECT_EQ(f.summary_interval_s, 60u);
  EXPECT_EQ(config->device, "greenhouse-3");
}

TEST(FleetConfig, TheShippedExampleParsesOnceUncommented) {
  std::ifstream in(std::string(MCPUD_SOURCE_DIR) + "/config/mcpud.toml");
  std::ostringstream edited;
  bool in_table = false, seen = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "# [uplink.fleet]") in_table = seen = true;
    if (in_table && line.empty()) in_table = false;  // the example ends at the first blank line
    if (in_table && line.starts_with("# ")) line = line.substr(2);
    edited << line << "\n";
  }
  ASSERT_TRUE(seen) << "no [uplink.fleet] example in config/mcpud.toml";
  auto config = parse(edited.str(), "mcpud.toml");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->uplink.fleet.host, "192.168.1.10");
  EXPECT_EQ(config->uplink.fleet.keepalive_s, 30u);
}

TEST(FleetTopics, RepliesGoToTheResponseTopicElseThePerClientFallback) {
  mcpud::uplinks::FleetTopics topics("site/a", "dev");
  EXPECT_EQ(topics.request(), "site/a/dev/rpc/req");
  mcpud::mqtt::Message m{"site/a/dev/rpc/req", "{}", 1, false, "host/replies", "c"};
  EXPECT_EQ(topics.reply_topic(m), "host/replies");
  m.response_topic.clear();
  EXPECT_EQ(topics.reply_topic(m), "site/a/dev/rpc/res");
  m.topic = "site/a/dev/rpc/req/laptop";
  EXPECT_EQ(topics.reply_topic(m), "site/a/dev/rpc/res/laptop");
  EXPECT_EQ(topics.events("a/b+c#"), "site/a/dev/events/a_b_c_");
}

}  // namespace
