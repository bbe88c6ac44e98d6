// SPDX-License-Identifier: MIT
// The commented bus examples of the Raspberry Pi configurations are valid once
// uncommented: what a user enables by deleting "# " parses as documented.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "config.hpp"

namespace mcpud::config {
namespace {

// `path` with the commented block that starts at `first_line` uncommented
// (up to the first line that is not a comment).
std::string uncommented(const std::string& path, const std::string& first_line) {
  std::ifstream in(path);
  std::ostringstream out;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == first_line) inside = true;
    if (inside && !line.starts_with("# ")) inside = false;
    out << (inside ? line.substr(2) : line) << "\n";
  }
  return out.str();
}

TEST(BusExamples, TheI2cExampleOfEachPiConfigurationParsesReadOnlyUnlessItSaysWrite) {
  for (const char* name : {"pi4.toml", "pi5.toml"}) {
    const std::string path = std::string(MCPUD_SOURCE_DIR) + "/config/examples/" + name;
    const auto config = parse(uncommented(path, "# [[i2c.buses]]"), name);
    ASSERT_TRUE(config) << config.error();
    ASSERT_EQ(config->i2c.buses.size(), 1u) << name;
    const auto& bus = config->i2c.buses[0];
    EXPECT_EQ(bus.bus, 1u);
    ASSERT_EQ(bus.devices.size(), 2u);
    EXPECT_FALSE(bus.device(0x50)->write);
    EXPECT_TRUE(bus.device(0x20)->write);
  }
}

TEST(BusExamples, TheSpiExampleOfEachPiConfigurationParses) {
  for (const char* name : {"pi4.toml", "pi5.toml"}) {
    const std::string path = std::string(MCPUD_SOURCE_DIR) + "/config/examples/" + name;
    const auto config = parse(uncommented(path, "# [[spi.devices]]"), name);
    ASSERT_TRUE(config) << config.error();
    ASSERT_NE(config->spi.device(0, 0), nullptr) << name;
    EXPECT_EQ(config->spi.device(0, 0)->max_speed_hz, 1350000u);
  }
}

}  // namespace
}  // namespace mcpud::config
