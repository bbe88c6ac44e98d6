// SPDX-License-Identifier: MIT
// The [i2c] table: its defaults, its bounds, and the checks the schema cannot
// make, each error naming the key.
#include <gtest/gtest.h>

#include "mcpud/buses/bus_config.hpp"
#include "mcpud/core/schema.hpp"

namespace mcpud::buses {
namespace {

using nlohmann::json;

std::expected<I2cConfig, std::string> i2c_from_table(json table) {
  if (auto valid = schema::validate(json::parse(kI2cConfigSchema), table, "i2c"); !valid) {
    return std::unexpected(valid.error());
  }
  return parse_i2c_config(table);
}

TEST(I2cConfig, AnEmptyTableAllowsNoBusAndBoundsTransfers) {
  const auto config = i2c_from_table(json::object());
  ASSERT_TRUE(config) << config.error();
  EXPECT_TRUE(config->buses.empty());
  EXPECT_EQ(config->max_transfer_bytes, 256u);
  EXPECT_EQ(config->dev_root, "/dev");
  EXPECT_EQ(config->sysfs_root, "/sys");
}

TEST(I2cConfig, AnAddressIsReadOnlyAndUnforcedUnlessItSaysSo) {
  const auto config = i2c_from_table(
      {{"buses", {{{"bus", 1}, {"devices", {{{"address", 0x48}}, {{"address", 0x76}, {"write", true}}}}}}}});
  ASSERT_TRUE(config) << config.error();
  const auto* bus = config->bus(1);
  ASSERT_NE(bus, nullptr);
  EXPECT_TRUE(bus->scan);
  ASSERT_NE(bus->device(0x48), nullptr);
  EXPECT_FALSE(bus->device(0x48)->write);
  EXPECT_FALSE(bus->device(0x48)->force);
  EXPECT_TRUE(bus->device(0x76)->write);
  EXPECT_EQ(bus->device(0x50), nullptr);
  EXPECT_EQ(config->bus(0), nullptr);
}

TEST(I2cConfig, ReservedAddressesAreRefusedNamingTheKey) {
  for (const int address : {0x00, 0x07, 0x78, 0x7F, 0x100}) {
    const auto config = i2c_from_table({{"buses", {{{"bus", 1}, {"devices", {{{"address", address}}}}}}}});
    ASSERT_FALSE(config) << address;
    EXPECT_NE(config.error().find("i2c.buses[0].devices[0].address"), std::string::npos) << config.error();
  }
}

TEST(I2cConfig, AnAddressOrBusListedTwiceIsRefusedNamingTheKey) {
  auto twice = i2c_from_table({{"buses", {{{"bus", 1}, {"devices", {{{"address", 0x48}}, {{"address", 0x48}}}}}}}});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error(), "i2c.buses[0].devices[1].address: 0x48 is listed twice on bus 1");
  twice = i2c_from_table({{"buses", {{{"bus", 1}}, {{"bus", 1}}}}});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error(), "i2c.buses[1].bus: bus 1 is listed twice");
}

TEST(I2cConfig, UnknownKeysAndOutOfRangeLimitsAreRefused) {
  EXPECT_FALSE(i2c_from_table({{"buses", {{{"bus", 1}, {"writable", true}}}}}));
  EXPECT_FALSE(i2c_from_table({{"max_transfer_bytes", 0}}));
  EXPECT_FALSE(i2c_from_table({{"max_transfer_bytes", 8193}}));
  EXPECT_FALSE(i2c_from_table({{"buses", {{{"bus", -1}}}}}));
}

}  // namespace
}  // namespace mcpud::buses
