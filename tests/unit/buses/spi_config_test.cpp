// SPDX-License-Identifier: MIT
// The [spi] table: its defaults and bounds, and a device listed twice named by key.
#include <gtest/gtest.h>

#include "mcpud/buses/bus_config.hpp"
#include "mcpud/core/schema.hpp"

namespace mcpud::buses {
namespace {

using nlohmann::json;

std::expected<SpiConfig, std::string> spi_from_table(json table) {
  if (auto valid = schema::validate(json::parse(kSpiConfigSchema), table, "spi"); !valid) {
    return std::unexpected(valid.error());
  }
  return parse_spi_config(table);
}

TEST(SpiConfig, ADeviceGetsTheDefaultSpeedAndLengthLimits) {
  const auto config = spi_from_table({{"devices", {{{"bus", 0}, {"chip_select", 1}}}}});
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->dev_root, "/dev");
  const auto* device = config->device(0, 1);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->max_speed_hz, 1000000u);
  EXPECT_EQ(device->max_transfer_bytes, 4096u);
  EXPECT_EQ(config->device(0, 0), nullptr);
}

TEST(SpiConfig, ADeviceListedTwiceIsRefusedNamingTheKey) {
  const auto twice =
      spi_from_table({{"devices", {{{"bus", 0}, {"chip_select", 0}}, {{"bus", 0}, {"chip_select", 0}}}}});
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error(), "spi.devices[1]: spidev0.0 is listed twice");
}

TEST(SpiConfig, LimitsOutOfRangeAndUnknownKeysAreRefusedNamingTheKey) {
  auto bad = spi_from_table({{"devices", {{{"bus", 0}, {"chip_select", 0}, {"max_speed_hz", 300000000}}}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("spi.devices[0].max_speed_hz"), std::string::npos) << bad.error();
  bad = spi_from_table({{"devices", {{{"bus", 0}, {"chip_select", 0}, {"max_transfer_bytes", 0}}}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("spi.devices[0].max_transfer_bytes"), std::string::npos) << bad.error();
  EXPECT_FALSE(spi_from_table({{"devices", {{{"bus", 0}}}}})) << "chip_select is required";
  EXPECT_FALSE(spi_from_table({{"devices", {{{"bus", 0}, {"chip_select", 0}, {"cs", 1}}}}}));
}

}  // namespace
}  // namespace mcpud::buses
