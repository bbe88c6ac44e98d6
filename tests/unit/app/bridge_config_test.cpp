// SPDX-License-Identifier: MIT
// Unit tests of the [[bridges]] configuration: defaults per transport and clear errors.
#include <gtest/gtest.h>

#include "config_parse_helpers.hpp"

namespace mcpud::config {
namespace {

TEST(BridgeConfig, SerialAndTcpBridgesWithTheirDefaults) {
  const auto config = parse(R"(
[[bridges]]
id = "uno"
port = "/dev/ttyACM0"

[[bridges]]
id = "esp"
tcp = "192.168.1.40:3000"
timeout_ms = 2000
)",
                            "test.toml");
  ASSERT_TRUE(config) << config.error();
  ASSERT_EQ(config->bridges.size(), 2u);
  const auto& uno = config->bridges[0];
  EXPECT_EQ(uno.id, "uno");
  EXPECT_EQ(uno.port, "/dev/ttyACM0");
  EXPECT_EQ(uno.baud, 115200u);
  EXPECT_EQ(uno.reset_wait_ms, 600u) << "serial boards reset when opened";
  EXPECT_EQ(uno.timeout_ms, 5000u);
  const auto& esp = config->bridges[1];
  EXPECT_EQ(esp.tcp, "192.168.1.40:3000");
  EXPECT_EQ(esp.reset_wait_ms, 0u) << "nothing resets over TCP";
  EXPECT_EQ(esp.timeout_ms, 2000u);
  EXPECT_EQ(config->resolved["bridges"][0]["max_in_flight"], 16);
}

TEST(BridgeConfig, ErrorsNameTheBridgeAndTheKey) {
  EXPECT_EQ(error_of("[[bridges]]\nport = \"/dev/ttyACM0\""), "test.toml: bridges[0].id: required property is missing");
  EXPECT_EQ(error_of("[[bridges]]\nid = \"uno\""),
            "test.toml: bridges[0]: give exactly one of port (a serial device), tcp (host:port) or discover (a pattern "
            "of the names boards announce on the LAN)");
  EXPECT_EQ(error_of("[[bridges]]\nid = \"uno\"\nport = \"/dev/x\"\ntcp = \"h:1\""),
            "test.toml: bridges[0]: give exactly one of port (a serial device), tcp (host:port) or discover (a pattern "
            "of the names boards announce on the LAN)");
  EXPECT_EQ(error_of("[[bridges]]\nid = \"uno\"\nport = \"ttyACM0\""),
            "test.toml: bridges[0].port: expected an absolute device path, e.g. /dev/ttyACM0");
  EXPECT_EQ(error_of("[[bridges]]\nid = \"esp\"\ntcp = \"192.168.1.40\""),
            "test.toml: bridges[0].tcp: expected host:port, e.g. 192.168.1.40:3000");
  EXPECT_EQ(error_of("[[bridges]]\nid = \"a__b\"\ntcp = \"h:1\""),
            "test.toml: bridges[0].id: must not contain \"__\" (it separates id and tool)");
  EXPECT_EQ(error_of("[[bridges]]\nid = \"a\"\ntcp = \"h:1\"\n[[bridges]]\nid = \"a\"\ntcp = \"h:2\""),
            "test.toml: bridges[1].id: 'a' is used by another bridge");
  EXPECT_NE(error_of("[[bridges]]\nid = \"uno\"\ntcp = \"h:1\"\nspeed = 9600"), "");
  EXPECT_NE(error_of("[[bridges]]\nid = \"9lives\"\ntcp = \"h:1\""), "");
}

}  // namespace
}  // namespace mcpud::config
