// SPDX-License-Identifier: MIT
// spi_transfer through the tool registry on a fake spidev (the ioctls spidev
// takes, answered in user space): the settings reach the device, the bytes come
// back, and the configuration's devices, speeds and lengths bound what a client
// may ask. Real SPI controllers are not emulated by the kernel test (docs/hardware.md).
#include <gtest/gtest.h>

#include <linux/spi/spidev.h>

#include <cerrno>

#include "fake_node.hpp"
#include "has_text.hpp"
#include "mcpud/buses/bus_devices.hpp"
#include "mcpud/buses/bus_tools.hpp"

namespace mcpud::buses {
namespace {

using nlohmann::json;

// A spidev that answers each byte with its complement, as a device echoing
// inverted data would, and remembers the settings it was given.
struct FakeSpi final : testing::FakeNode {
  FakeSpi() : FakeNode("/dev/spidev0.1", 5) {}

  int refuse_request = 0;  // an ioctl request answered EINVAL
  std::uint8_t mode = 0xFF, bits = 0;
  std::uint32_t speed = 0, message_speed = 0;
  std::size_t transfers = 0;
  int ioctl(int, unsigned long request, void* arg) override {
    if (refuse_request != 0 && request == static_cast<unsigned long>(refuse_request)) return -EINVAL;
    if (request == SPI_IOC_WR_MODE)
      mode = *static_cast<std::uint8_t*>(arg);
    else if (request == SPI_IOC_WR_BITS_PER_WORD)
      bits = *static_cast<std::uint8_t*>(arg);
    else if (request == SPI_IOC_WR_MAX_SPEED_HZ)
      speed = *static_cast<std::uint32_t*>(arg);
    else if (request == SPI_IOC_MESSAGE(1)) {
      const auto& m = *static_cast<spi_ioc_transfer*>(arg);
      const auto* tx = reinterpret_cast<const std::uint8_t*>(static_cast<std::uintptr_t>(m.tx_buf));
      auto* rx = reinterpret_cast<std::uint8_t*>(static_cast<std::uintptr_t>(m.rx_buf));
      for (std::uint32_t i = 0; i < m.len; ++i) rx[i] = static_cast<std::uint8_t>(~tx[i]);
      message_speed = m.speed_hz;
      ++transfers;
      return static_cast<int>(m.len);
    } else {
      return -ENOTTY;
    }
    return 0;
  }
};

class SpiToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SpiConfig config;
    config.dev_root = "/dev";
    config.devices = {{0, 1, "MCP3008", 1350000, 16, 0}};
    settings_.set_spi(config);
    register_spi_tools(registry_, settings_, transfers_);
  }
  void TearDown() override { EXPECT_EQ(fake_.open_fds, 0) << "every call closes the device it opened"; }

  ToolResult call(json args) {
    ToolResult out = std::unexpected(Error::internal("no reply"));
    registry_.call(Caller{}, "spi_transfer", std::move(args), [&](ToolResult r) { out = std::move(r); });
    return out;
  }
  Error fails(json args) {
    auto r = call(std::move(args));
    EXPECT_FALSE(r) << "succeeded: " << (r ? r->dump() : "");
    return r ? Error{} : r.error();
  }

  FakeSpi fake_;
  BusSettings settings_{fake_};
  EventHub events_;
  LastTransfers transfers_{events_};
  ToolRegistry registry_;
};

TEST_F(SpiToolsTest, ATransferSetsModeSpeedAndWordSizeAndReturnsWhatCameBack) {
  // An MCP3008 read of channel 0: start bit, single-ended channel 0, a byte to clock the rest.
  const auto reply =
      call({{"bus", 0}, {"chip_select", 1}, {"data", {0x01, 0x80, 0x00}}, {"mode", 3}, {"speed_hz", 500000}});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ((*reply)["data"], json({0xFE, 0x7F, 0xFF}));
  EXPECT_EQ((*reply)["hex"], "fe7fff");
  EXPECT_EQ(fake_.mode, 3);
  EXPECT_EQ(fake_.bits, 8);
  EXPECT_EQ(fake_.speed, 500000u);
  EXPECT_EQ(fake_.message_speed, 500000u);
}

TEST_F(SpiToolsTest, WithoutASpeedTheDevicesMaximumIsUsed) {
  ASSERT_TRUE(call({{"bus", 0}, {"chip_select", 1}, {"data", {1}}}));
  EXPECT_EQ(fake_.speed, 1350000u);
  EXPECT_EQ(fake_.mode, 0);
}

TEST_F(SpiToolsTest, AnUnconfiguredDeviceIsRefusedNamingTheTable) {
  const auto refused = fails({{"bus", 0}, {"chip_select", 0}, {"data", {1}}});
  EXPECT_EQ(refused.name, "NOT_AUTHORIZED");
  EXPECT_EQ(refused.message,
            "spidev0.0 is not configured (spidev0.1 is): add [[spi.devices]] with bus = 0 and chip_select = 0 to "
            "mcpud.toml");
  EXPECT_EQ(fake_.transfers, 0u);
}

TEST_F(SpiToolsTest, LengthAndSpeedBeyondTheDevicesLimitsAreRefusedNamingTheKey) {
  std::vector<int> seventeen(17, 0);
  auto refused = fails({{"bus", 0}, {"chip_select", 1}, {"data", seventeen}});
  EXPECT_EQ(refused.message, "params.data: 17 bytes is more than 16 (spi.devices[0].max_transfer_bytes)");
  refused = fails({{"bus", 0}, {"chip_select", 1}, {"data", {1}}, {"speed_hz", 2000000}});
  EXPECT_EQ(refused.message, "params.speed_hz: 2000000 Hz is more than 1350000 (spi.devices[0].max_speed_hz)");
  refused = fails({{"bus", 0}, {"chip_select", 1}, {"data", {1, 2, 3}}, {"bits_per_word", 12}});
  EXPECT_TRUE(has(refused.message, "12 bits per word take 2 bytes each")) << refused.message;
  EXPECT_EQ(fails({{"bus", 0}, {"chip_select", 1}, {"data", json::array()}}).code, rpc_code::kInvalidParams);
  EXPECT_EQ(fails({{"bus", 0}, {"chip_select", 1}, {"data", {1}}, {"mode", 4}}).code, rpc_code::kInvalidParams);
  EXPECT_EQ(fails({{"bus", 0}, {"chip_select", 1}, {"data", {256}}}).code, rpc_code::kInvalidParams);
  EXPECT_EQ(fails({{"bus", 0}, {"chip_select", 1}, {"data", {1}}, {"bits_per_word", 33}}).code,
            rpc_code::kInvalidParams);
  EXPECT_EQ(fake_.transfers, 0u) << "nothing refused reached the device";
}

TEST_F(SpiToolsTest, AMissingDeviceNamesWhatToEnableAndPermissionNamesTheGroup) {
  fake_.path = "/dev/spidev1.0";
  auto refused = fails({{"bus", 0}, {"chip_select", 1}, {"data", {1}}});
  EXPECT_EQ(refused.name, "OPEN_ERROR");
  EXPECT_TRUE(has(refused.message, "/dev/spidev0.1 does not exist")) << refused.message;
  EXPECT_TRUE(has(refused.message, "dtparam=spi=on"));
  fake_.open_error = EACCES;
  refused = fails({{"bus", 0}, {"chip_select", 1}, {"data", {1}}});
  EXPECT_EQ(refused.name, "NOT_AUTHORIZED");
  EXPECT_TRUE(has(refused.message, "the spi group")) << refused.message;
}

TEST_F(SpiToolsTest, ASettingTheControllerRefusesIsNamed) {
  fake_.refuse_request = static_cast<int>(SPI_IOC_WR_MODE);
  const auto refused = fails({{"bus", 0}, {"chip_select", 1}, {"data", {1}}, {"mode", 2}});
  EXPECT_EQ(refused.name, "INVALID_ARGUMENT");
  EXPECT_TRUE(has(refused.message, "the controller refuses mode 2")) << refused.message;
  fake_.refuse_request = static_cast<int>(SPI_IOC_MESSAGE(1));
  EXPECT_EQ(fails({{"bus", 0}, {"chip_select", 1}, {"data", {1}}}).name, "WRITE_ERROR");
}

TEST_F(SpiToolsTest, WideWordsTakeTwoBytesEach) {
  const auto reply = call({{"bus", 0}, {"chip_select", 1}, {"data", {0x34, 0x12}}, {"bits_per_word", 12}});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(fake_.bits, 12);
}

}  // namespace
}  // namespace mcpud::buses
