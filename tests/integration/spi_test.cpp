// SPDX-License-Identifier: MIT
// spi_transfer through the real mcpud over MCP/U on TCP on the kernel's
// device nodes (a board without pins), for what needs no SPI controller:
// offered only with a configured device; an unconfigured device,
// a transfer longer or faster than the device allows, and bad arguments are
// refused naming the key or argument; a missing /dev/spidevB.C names
// dtparam=spi=on; --check-config names the key of a bad [spi] table. Transfers
// themselves are tested against a fake spidev (tests/unit/buses) and the
// simulated board's MCP3008 (sim_buses_test): the kernel test has no SPI
// controller to emulate one with.

#include <filesystem>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

class SpiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto dir = daemon_.temp_dir().path();
    std::filesystem::create_directories(dir / "dev");
    const std::string table = "\n[spi]\ndev_root = \"" + (dir / "dev").string() +
                              "\"\n[[spi.devices]]\nbus = 0\nchip_select = 1\nname = \"MCP3008\"\n"
                              "max_speed_hz = 1350000\nmax_transfer_bytes = 16\n";
    port_ = daemon_.start_tcp({"--config", daemon_.write_file("mcpud.toml", no_pins_config_toml() + table)});
    ASSERT_NE(port_, 0);
    client_ = LineClient::connect_tcp(port_);
    ASSERT_TRUE(client_);
  }

  json call(const json& params) { return client_->call("spi_transfer", params, next_id_++, 10s); }
  std::string message(const json& reply) { return reply["error"].value("message", ""); }

  DaemonProcess daemon_;
  int port_ = 0;
  int next_id_ = 1;
  std::optional<LineClient> client_;
};

TEST_F(SpiTest, AnUnconfiguredDeviceIsRefusedNamingTheTable) {
  const json refused = call({{"bus", 0}, {"chip_select", 0}, {"data", {1}}});
  EXPECT_TRUE(is_error(refused, -32020, "NOT_AUTHORIZED")) << refused.dump();
  EXPECT_TRUE(contains(message(refused), "spidev0.0 is not configured (spidev0.1 is): add [[spi.devices]]"));
}

TEST_F(SpiTest, LengthAndSpeedBeyondTheDevicesLimitsAreRefusedNamingTheKey) {
  const json longer = call({{"bus", 0}, {"chip_select", 1}, {"data", std::vector<int>(17, 0)}});
  EXPECT_TRUE(is_error(longer, -32602, "INVALID_ARGUMENT")) << longer.dump();
  EXPECT_TRUE(contains(message(longer), "spi.devices[0].max_transfer_bytes"));
  const json faster = call({{"bus", 0}, {"chip_select", 1}, {"data", {1}}, {"speed_hz", 2000000}});
  EXPECT_TRUE(is_error(faster, -32602, "INVALID_ARGUMENT")) << faster.dump();
  EXPECT_TRUE(contains(message(faster), "spi.devices[0].max_speed_hz"));
  EXPECT_TRUE(is_error(call({{"bus", 0}, {"chip_select", 1}, {"data", {1}}, {"mode", 4}}), -32602));
  EXPECT_TRUE(is_error(call({{"bus", 0}, {"chip_select", 1}, {"data", json::array()}}), -32602));
  EXPECT_TRUE(is_error(call({{"bus", 0}, {"chip_select", 1}, {"data", {-1}}}), -32602));
  EXPECT_TRUE(is_error(call({{"bus", 0}, {"chip_select", 1}}), -32602));
}

TEST_F(SpiTest, AMissingDeviceNamesWhatToEnable) {
  const json missing = call({{"bus", 0}, {"chip_select", 1}, {"data", {1, 2}}});
  EXPECT_TRUE(is_error(missing, -32032, "OPEN_ERROR")) << missing.dump();
  EXPECT_TRUE(contains(message(missing), "/dev/spidev0.1 does not exist"));
  EXPECT_TRUE(contains(message(missing), "dtparam=spi=on"));
}

TEST_F(SpiTest, AFileThatIsNotASpidevIsRefusedNotUsed) {
  daemon_.write_file("dev/spidev0.1", "not a device");
  const json refused = call({{"bus", 0}, {"chip_select", 1}, {"data", {1}}});
  EXPECT_TRUE(is_error(refused, -32032, "OPEN_ERROR")) << refused.dump();
  EXPECT_TRUE(contains(message(refused), "is not a spidev device"));
}

TEST(SpiConfigCheck, CheckConfigNamesTheKeyOfABadSpiTable) {
  for (const auto& [table, expected] :
       {std::pair{"[[spi.devices]]\nbus = 0\nchip_select = 0\n[[spi.devices]]\nbus = 0\nchip_select = 0\n",
                  "spi.devices[1]: spidev0.0 is listed twice"},
        {"[[spi.devices]]\nbus = 0\nchip_select = 0\nmax_speed_hz = 1\n", "spi.devices[0].max_speed_hz"},
        {"[[spi.devices]]\nbus = 0\n", "spi.devices[0]"}}) {
    DaemonProcess daemon;
    ASSERT_TRUE(daemon.start({"--check-config", daemon.write_file("bad.toml", table)}));
    EXPECT_EQ(daemon.wait_exit(10s), 1) << table;
    EXPECT_TRUE(contains(daemon.log(), expected)) << daemon.log();
  }
}

}  // namespace
}  // namespace mcpud::it
