// SPDX-License-Identifier: MIT
// Unit tests of [uplink.assistant]: defaults, the URL check, token_file, key-path errors.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "config_parse_helpers.hpp"
#include "ws_url.hpp"

namespace mcpud::config {
namespace {

TEST(AssistantUplinkConfig, IsOffUntilItNamesAUrlAndHasTheFirmwareDefaults) {
  const auto config = parse("", "test.toml");
  ASSERT_TRUE(config);
  const auto& assistant = config->uplink.assistant;
  EXPECT_FALSE(assistant.enabled());
  EXPECT_EQ(assistant.transport, "websocket");
  EXPECT_EQ(assistant.protocol_version, 1);
  EXPECT_EQ(assistant.hello_timeout_ms, 10000u);
  EXPECT_LT(assistant.ping_interval_ms, 120000u) << "pings must beat the server's 120 s idle limit";
  EXPECT_EQ(assistant.audio_params["format"], "opus");
  EXPECT_TRUE(assistant.push_pin_events);
}

TEST(AssistantUplinkConfig, ErrorsNameTheKey) {
  EXPECT_EQ(error_of("[uplink.assistant]\nurl = \"http://example.com/\"\n"),
            "test.toml: uplink.assistant.url: expected ws:// or wss://, got 'http://example.com/'");
  EXPECT_EQ(error_of("[uplink.assistant]\nurl = \"ws://host:0/\"\n"),
            "test.toml: uplink.assistant.url: port must be 1..65535, got '0'");
  EXPECT_EQ(error_of("[uplink.assistant]\nurl = \"ws://u:p@host/\"\n"),
            "test.toml: uplink.assistant.url: credentials in the URL are not supported; use token or token_file");
  EXPECT_EQ(error_of("[uplink.assistant]\nurl = \"ws://h/\"\ntoken = \"a\"\ntoken_file = \"/nonexistent\"\n"),
            "test.toml: uplink.assistant.token_file: give token or token_file, not both");
  EXPECT_EQ(
      error_of("[uplink.assistant]\nurl = \"ws://h/\"\ntoken_file = \"/nonexistent/token\"\n"),
      "test.toml: uplink.assistant.token_file: /nonexistent/token: cannot open the file: No such file or directory");
  EXPECT_EQ(error_of("[uplink.assistant]\ncapabilities_file = \"caps.json\"\n"),
            "test.toml: uplink.assistant.capabilities_file: expected an absolute path, got 'caps.json'");
  EXPECT_NE(error_of("[uplink.assistant]\ntransport = \"carrier-pigeon\"\n"), "");
  EXPECT_NE(error_of("[uplink.assistant]\nping_interval_ms = 200000\n"), "");
  EXPECT_NE(error_of("[uplink.assistant]\nurl = \"ws://h/\"\nno_such_key = 1\n"), "");
}

TEST(AssistantUplinkConfig, ReadsTheTokenFromAFileWithoutItsNewline) {
  char path[] = "/tmp/mcpud-token-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path) << "s3cret\n";
  const auto config =
      parse("[uplink.assistant]\nurl = \"wss://h/x\"\ntoken_file = \"" + std::string(path) + "\"\n", "t");
  std::remove(path);
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->uplink.assistant.token, "s3cret");
  EXPECT_TRUE(config->uplink.assistant.enabled());
}

TEST(AssistantUplinkConfig, TheMqttVariantNeedsABrokerAndATopic) {
  const auto off = parse("[uplink.assistant]\ntransport = \"mqtt\"\nurl = \"ws://h/\"\n", "t");
  ASSERT_TRUE(off);
  EXPECT_FALSE(off->uplink.assistant.enabled()) << "an mqtt uplink is off until it names a broker";
  const auto on = parse(
      "[uplink.assistant]\ntransport = \"mqtt\"\nbroker = \"10.0.0.2:1883\"\npublish_topic = \"device-server\"\n", "t");
  ASSERT_TRUE(on) << on.error();
  EXPECT_TRUE(on->uplink.assistant.enabled());
  EXPECT_EQ(on->uplink.assistant.keepalive_s, 240u);
  EXPECT_EQ(on->uplink.assistant.mqtt_version, "3.1.1");
  EXPECT_EQ(error_of("[uplink.assistant]\ntransport = \"mqtt\"\nbroker = \"10.0.0.2:1883\"\n"),
            "test.toml: uplink.assistant.publish_topic: required with transport = \"mqtt\"");
  EXPECT_EQ(error_of("[uplink.assistant]\ntransport = \"mqtt\"\nbroker = \"10.0.0.2\"\npublish_topic = \"t\"\n"),
            "test.toml: uplink.assistant.broker: expected host:port, e.g. 192.168.1.10:1883, got '10.0.0.2'");
  EXPECT_EQ(error_of("[uplink.assistant]\npassword = \"a\"\npassword_file = \"/x\"\n"),
            "test.toml: uplink.assistant.password_file: give password or password_file, not both");
}

// The commented [uplink.assistant] example of the shipped config, uncommented up
// to `stop_at` (a line of the example), parses.
std::expected<Config, std::string> shipped_example(const std::string& stop_at) {
  std::ifstream in(std::string(MCPUD_SOURCE_DIR) + "/config/mcpud.toml");
  std::string text;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "# [uplink.assistant]") inside = true;
    if (!inside) continue;
    if (line.empty() || line == stop_at) break;
    if (line.starts_with("# ") && line.find(" = ") != std::string::npos) text += line.substr(2) + "\n";
    if (line == "# [uplink.assistant]") text += "[uplink.assistant]\n";
  }
  return parse(text, "example");
}

TEST(AssistantUplinkConfig, TheShippedExamplesWorkOnceUncommented) {
  const auto websocket = shipped_example("# The same protocol through an MQTT broker instead:");
  ASSERT_TRUE(websocket) << websocket.error();
  EXPECT_TRUE(websocket->uplink.assistant.enabled());
  EXPECT_FALSE(websocket->uplink.assistant.mqtt());
  EXPECT_EQ(websocket->uplink.assistant.url, "wss://assistant.example.com/xiaozhi/v1/");
  const auto mqtt = shipped_example("");
  ASSERT_TRUE(mqtt) << mqtt.error();
  EXPECT_TRUE(mqtt->uplink.assistant.mqtt());
  EXPECT_TRUE(mqtt->uplink.assistant.enabled());
  EXPECT_EQ(mqtt->uplink.assistant.keepalive_s, 240u);
}

TEST(WsUrl, SplitsHostPortAndTarget) {
  auto plain = uplinks::parse_ws_url("ws://example.com/xiaozhi/v1/");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->tls);
  EXPECT_EQ(plain->host, "example.com");
  EXPECT_EQ(plain->port, "80");
  EXPECT_EQ(plain->target, "/xiaozhi/v1/");
  auto secure = uplinks::parse_ws_url("wss://[::1]:8443?device=1");
  ASSERT_TRUE(secure);
  EXPECT_TRUE(secure->tls);
  EXPECT_EQ(secure->host, "::1");
  EXPECT_EQ(secure->port, "8443");
  EXPECT_EQ(secure->target, "/?device=1");
  EXPECT_EQ(secure->display(), "wss://[::1]:8443/") << "the query may carry secrets: not shown";
  EXPECT_EQ(uplinks::parse_ws_url("wss://h").value().port, "443");
  EXPECT_FALSE(uplinks::parse_ws_url("ws:///path"));
  EXPECT_FALSE(uplinks::parse_ws_url("ws://[::1/"));
  EXPECT_FALSE(uplinks::parse_ws_url("ws://h:http/"));
}

}  // namespace
}  // namespace mcpud::config
