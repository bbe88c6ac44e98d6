// SPDX-License-Identifier: MIT
// SERIAL_MCP_* variables override the [serial] table; bad values are named.
#include <gtest/gtest.h>

#include <map>

#include "mcpud/core/schema.hpp"
#include "mcpud/serial/serial_config.hpp"

namespace mcpud::serial {
namespace {

Getenv env(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    const auto it = values.find(name);
    return it == values.end() ? nullptr : it->second.c_str();
  };
}

// A [serial] table as the daemon reads it: checked by the schema, defaults filled in.
SerialConfig from_table(nlohmann::json table) {
  const auto valid = schema::validate(nlohmann::json::parse(kSerialConfigSchema), table, "serial");
  EXPECT_TRUE(valid) << valid.error();
  return parse_config(table);
}

TEST(SerialConfig, EnvironmentOverridesTheTable) {
  auto config = from_table({{"default_baud", 9600}, {"allowed_ports", {"/dev/ttyUSB*"}}});
  EXPECT_EQ(config.default_baud, 9600u);
  ASSERT_TRUE(apply_environment(config, env({{"SERIAL_MCP_DEFAULT_BAUD", "921600"},
                                             {"SERIAL_MCP_DEFAULT_TIMEOUT_MS", "250"},
                                             {"SERIAL_MCP_LOG_LEVEL", "trace"},
                                             {"SERIAL_MCP_ALLOWED_PORTS", " /dev/ttyACM*, /dev/serial/by-id/*,"}})));
  EXPECT_EQ(config.default_baud, 921600u);
  EXPECT_EQ(config.default_timeout_ms, 250u);
  EXPECT_EQ(config.log_level, "debug");
  EXPECT_EQ(config.allowed_ports, (std::vector<std::string>{"/dev/ttyACM*", "/dev/serial/by-id/*"}));
}

TEST(SerialConfig, NothingSetKeepsTheTable) {
  auto config = from_table({{"default_timeout_ms", 40}});
  ASSERT_TRUE(apply_environment(config, env({})));
  EXPECT_EQ(config.default_timeout_ms, 40u);
  EXPECT_EQ(config.default_baud, 115200u);
  EXPECT_EQ(config.buffer_bytes, 1u << 20);
}

TEST(SerialConfig, PortsAreClosedAndSessionsPrivateByDefault) {
  const auto config = default_config();
  EXPECT_FALSE(config.allowed_ports.has_value());  // unset, not empty: `mcpud --stdio` tells them apart
  EXPECT_FALSE(config.share_sessions);
  EXPECT_EQ(config.buffer_bytes_total, 16u << 20);
  EXPECT_EQ(from_table({{"allowed_ports", nlohmann::json::array()}}).allowed_ports, std::vector<std::string>{});
}

TEST(SerialConfig, ABufferLargerThanTheTotalIsRefusedWithBothKeys) {
  EXPECT_TRUE(check_config(default_config()));
  const auto checked = check_config(from_table({{"buffer_bytes", 4096}, {"buffer_bytes_total", 1024}}));
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error(),
            "serial.buffer_bytes: 4096 is more than serial.buffer_bytes_total (1024): no session could open with it");
}

TEST(SerialConfig, BadValuesAreNamed) {
  SerialConfig config;
  EXPECT_EQ(apply_environment(config, env({{"SERIAL_MCP_DEFAULT_BAUD", "fast"}})).error(),
            "SERIAL_MCP_DEFAULT_BAUD='fast': expected a whole number from 50 to 16000000");
  EXPECT_FALSE(apply_environment(config, env({{"SERIAL_MCP_DEFAULT_TIMEOUT_MS", "-1"}})));
  EXPECT_FALSE(apply_environment(config, env({{"SERIAL_MCP_LOG_LEVEL", "loud"}})));
}

}  // namespace
}  // namespace mcpud::serial
