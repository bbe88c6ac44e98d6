// SPDX-License-Identifier: MIT
// The allow list: none by default, globs that do not cross "/" nor match "..",
// the open default of a user's own `mcpud --stdio`, and one refusal for every
// path that is not an allowed serial port.
#include "port_access.hpp"

#include <gtest/gtest.h>

namespace mcpud::serial {
namespace {

SerialConfig allowing(std::vector<std::string> globs) {
  SerialConfig config;
  config.allowed_ports = std::move(globs);
  return config;
}

TEST(PortAccess, AShortNameIsUnderDev) {
  EXPECT_EQ(port_path("ttyUSB0"), "/dev/ttyUSB0");
  EXPECT_EQ(port_path("../etc/shadow"), "/dev/../etc/shadow");
  EXPECT_EQ(port_path("/dev/ttyACM0"), "/dev/ttyACM0");
}

TEST(PortAccess, GlobsMatchWholeNamesOnly) {
  const auto config = allowing({"/dev/ttyUSB*", "/dev/serial/by-id/*"});
  EXPECT_TRUE(port_allowed(config, "/dev/ttyUSB0"));
  EXPECT_TRUE(port_allowed(config, "/dev/serial/by-id/usb-FTDI_FT232R-if00-port0"));
  EXPECT_FALSE(port_allowed(config, "/dev/ttyACM0"));
  EXPECT_FALSE(port_allowed(config, "/dev/ttyUSB0/../../etc/shadow"));
  EXPECT_FALSE(port_allowed(config, "/dev/serial/by-id/.."));
  EXPECT_FALSE(port_allowed(config, "/dev/serial/by-id/.hidden"));
}

TEST(PortAccess, NothingIsAllowedUnlessListed) {
  SerialConfig unset;
  EXPECT_FALSE(port_allowed(unset, "/dev/ttyUSB0"));
  const auto refused = check_port(unset, "/dev/ttyUSB0");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().name, "NOT_AUTHORIZED");
  EXPECT_NE(refused.error().message.find("[serial] allowed_ports lists none"), std::string::npos);
  EXPECT_FALSE(check_port(allowing({}), "/dev/ttyUSB0"));
  // A user's own --stdio server: any port while the list is unset, the list when set.
  SerialConfig stdio;
  stdio.any_port_when_unset = true;
  EXPECT_TRUE(port_allowed(stdio, "/dev/ttyUSB0"));
  stdio.allowed_ports = std::vector<std::string>{"/dev/ttyACM*"};
  EXPECT_FALSE(port_allowed(stdio, "/dev/ttyUSB0"));
}

TEST(PortAccess, EveryRefusedPathGetsTheSameMessage) {
  const auto config = allowing({"/dev/ttyUSB*", "/dev/null"});
  std::string common;
  for (const std::string path : {"/etc/shadow", "/dev/null", "/dev/../etc/shadow", "/no/such/file", "/proc/1/mem"}) {
    const auto refused = check_port(config, path);
    ASSERT_FALSE(refused) << path;
    EXPECT_EQ(refused.error().name, "NOT_AUTHORIZED") << path;
    const auto& message = refused.error().message;
    ASSERT_EQ(message.rfind(path, 0), 0u) << message;
    if (common.empty()) common = message.substr(path.size());
    EXPECT_EQ(message.substr(path.size()), common) << path;
  }
  EXPECT_NE(common.find("allowed: /dev/ttyUSB*, /dev/null"), std::string::npos) << common;
  // An allowed name with nothing behind it is an unplugged device.
  const auto missing = check_port(config, "/dev/ttyUSB99");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().name, "OPEN_ERROR");
}

}  // namespace
}  // namespace mcpud::serial
