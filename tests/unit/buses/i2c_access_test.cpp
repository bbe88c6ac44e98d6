// SPDX-License-Identifier: MIT
// The I2C allow list and the kernel's claims: each refusal says what to set or
// who owns the address.
#include <gtest/gtest.h>

#include <filesystem>

#include "has_text.hpp"
#include "i2c_access.hpp"

namespace mcpud::buses {
namespace {

namespace fs = std::filesystem;

class I2cAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("i2c-access-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "bus/i2c/devices");
    fs::create_directories(root_ / "bus/i2c/drivers/lm75");
    config_.sysfs_root = root_.string();
    config_.dev_root = "/dev";
    config_.max_transfer_bytes = 256;
    I2cBusConfig bus;
    bus.bus = 1;
    bus.scan = true;
    bus.index = 0;
    bus.devices = {{0x48, "thermometer", false, false}, {0x50, "eeprom", true, false}, {0x49, "", true, true}};
    config_.buses.push_back(bus);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Declares a kernel device at 1-00AA, bound to `driver` unless empty.
  void declare(const std::string& name, const std::string& driver) {
    const auto device = root_ / "bus/i2c/devices" / name;
    fs::create_directories(device);
    if (!driver.empty()) fs::create_directory_symlink("../../../bus/i2c/drivers/" + driver, device / "driver");
  }

  fs::path root_;
  I2cConfig config_;
};

TEST_F(I2cAccessTest, AnUnconfiguredBusIsRefusedNamingTheTableToAdd) {
  const auto refused = check_i2c_access(config_, 3, 0x48, I2cAccess::Read);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().name, "NOT_AUTHORIZED");
  EXPECT_TRUE(has(refused.error().message, "I2C bus 3 is not configured (1 is)")) << refused.error().message;
  EXPECT_TRUE(has(refused.error().message, "[[i2c.buses]] with bus = 3"));
  EXPECT_FALSE(check_i2c_scan(config_, 3));
}

TEST_F(I2cAccessTest, AnUnconfiguredAddressIsRefusedNamingWhereToAddIt) {
  const auto refused = check_i2c_access(config_, 1, 0x51, I2cAccess::Read);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().name, "NOT_AUTHORIZED");
  EXPECT_EQ(refused.error().message,
            "0x51 on I2C bus 1 is not configured: add {address = 0x51} to i2c.buses[0].devices");
}

TEST_F(I2cAccessTest, AWriteToAReadOnlyAddressIsRefusedNamingTheKeyToSet) {
  EXPECT_TRUE(check_i2c_access(config_, 1, 0x48, I2cAccess::Read));
  const auto refused = check_i2c_access(config_, 1, 0x48, I2cAccess::Write);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().name, "NOT_AUTHORIZED");
  EXPECT_EQ(refused.error().message,
            "0x48 on I2C bus 1 is read-only: set write = true at i2c.buses[0].devices[0] to allow i2c_write");
  EXPECT_TRUE(check_i2c_access(config_, 1, 0x50, I2cAccess::Write));
}

TEST_F(I2cAccessTest, AnAddressADriverOwnsIsRefusedNamingTheDriverUnlessForced) {
  declare("1-0048", "lm75");
  declare("1-0049", "lm75");
  const auto refused = check_i2c_access(config_, 1, 0x48, I2cAccess::Read);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().name, "BUSY");
  EXPECT_TRUE(has(refused.error().message, "kernel driver 'lm75' (1-0048)")) << refused.error().message;
  EXPECT_TRUE(has(refused.error().message, "force = true at i2c.buses[0].devices[0]"));
  const auto forced = check_i2c_access(config_, 1, 0x49, I2cAccess::Write);
  ASSERT_TRUE(forced) << forced.error().message;
  EXPECT_TRUE(forced->force);
  const auto free = check_i2c_access(config_, 1, 0x50, I2cAccess::Write);
  ASSERT_TRUE(free);
  EXPECT_FALSE(free->force) << "an address no driver owns is selected the ordinary way";
}

TEST_F(I2cAccessTest, ADeviceDeclaredWithoutADriverStillKeepsClientsOff) {
  declare("1-0050", "");
  const auto owner = address_owner(config_.sysfs_root, 1, 0x50);
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->device, "1-0050");
  EXPECT_EQ(owner->driver, "");
  const auto refused = check_i2c_access(config_, 1, 0x50, I2cAccess::Read);
  ASSERT_FALSE(refused);
  EXPECT_TRUE(has(refused.error().message, "no driver bound yet")) << refused.error().message;
  EXPECT_FALSE(address_owner(config_.sysfs_root, 2, 0x50)) << "the same address on another bus is not claimed";
}

TEST_F(I2cAccessTest, ScanningABusWithScanOffIsRefusedNamingTheKey) {
  ASSERT_TRUE(check_i2c_scan(config_, 1));
  config_.buses[0].scan = false;
  const auto refused = check_i2c_scan(config_, 1);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "scanning I2C bus 1 is off: set scan = true at i2c.buses[0]");
}

}  // namespace
}  // namespace mcpud::buses
