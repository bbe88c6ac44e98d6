// SPDX-License-Identifier: MIT
// i2c_scan, i2c_read and i2c_write through the tool registry, on a fake i2c-dev
// adapter: the real ioctl code, the argument checks and the errors a client sees.
#include <gtest/gtest.h>

#include <filesystem>

#include "fake_i2c.hpp"
#include "has_text.hpp"
#include "mcpud/buses/bus_devices.hpp"
#include "mcpud/buses/bus_tools.hpp"

namespace mcpud::buses {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json with(json base, const json& more) {
  base.update(more);
  return base;
}

class I2cToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sysfs_ = fs::temp_directory_path() / ("i2c-tools-" + std::to_string(::getpid()));
    fs::remove_all(sysfs_);
    fs::create_directories(sysfs_ / "bus/i2c/devices");
    fake_.add_chip(0x48);
    fake_.add_chip(0x50);
    fake_.add_chip(0x76);
    I2cConfig config;
    config.dev_root = "/dev";
    config.sysfs_root = sysfs_.string();
    config.max_transfer_bytes = 64;
    I2cBusConfig bus;
    bus.bus = 1;
    bus.scan = true;
    bus.devices = {{0x48, "thermometer", false, false}, {0x50, "eeprom", true, false}, {0x20, "gone", true, false}};
    config.buses.push_back(bus);
    settings_.set_i2c(config);
    register_i2c_tools(registry_, settings_, transfers_);
  }
  void TearDown() override {
    fs::remove_all(sysfs_);
    EXPECT_EQ(fake_.open_fds, 0) << "every call closes the adapter it opened";
  }

  ToolResult call(const std::string& name, json args) {
    ToolResult out = std::unexpected(Error::internal("no reply"));
    registry_.call(Caller{}, name, std::move(args), [&](ToolResult r) { out = std::move(r); });
    return out;
  }
  json ok(const std::string& name, json args) {
    auto r = call(name, std::move(args));
    EXPECT_TRUE(r) << name << ": " << (r ? "" : r.error().message);
    return r ? *r : json::object();
  }
  Error fails(const std::string& name, json args) {
    auto r = call(name, std::move(args));
    EXPECT_FALSE(r) << name << " succeeded: " << (r ? r->dump() : "");
    return r ? Error{} : r.error();
  }

  fs::path sysfs_;
  testing::FakeI2c fake_;
  BusSettings settings_{fake_};
  EventHub events_;
  LastTransfers transfers_{events_};
  ToolRegistry registry_;
};

TEST_F(I2cToolsTest, ScanListsWhatAnswersAndProbesAsI2cdetectDoes) {
  const auto found = ok("i2c_scan", {{"bus", 1}});
  EXPECT_EQ(found["device"], "/dev/i2c-1");
  std::map<int, json> rows;
  for (const auto& row : found["addresses"]) rows[row["address"].get<int>()] = row;
  ASSERT_EQ(rows.size(), 4u) << found.dump();
  EXPECT_EQ(rows[0x48]["state"], "answered");
  EXPECT_EQ(rows[0x48]["name"], "thermometer");
  EXPECT_EQ(rows[0x48]["write"], false);
  EXPECT_EQ(rows[0x50]["write"], true);
  EXPECT_EQ(rows[0x76]["configured"], false);
  EXPECT_EQ(rows[0x76]["hex"], "0x76");
  EXPECT_EQ(rows[0x20]["state"], "no_answer") << "a configured address that is silent is worth saying";
  ASSERT_EQ(fake_.probed.size(), 0x77u - 0x08u + 1u);
  for (std::size_t i = 0; i < fake_.probed.size(); ++i) {
    const auto a = fake_.probed[i];
    const bool read_byte = (a >= 0x30 && a <= 0x37) || (a >= 0x50 && a <= 0x5F);
    EXPECT_EQ(fake_.probe_sizes[i], read_byte ? I2C_SMBUS_BYTE : I2C_SMBUS_QUICK) << "address " << int(a);
  }
}

TEST_F(I2cToolsTest, ScanNeverProbesAnAddressADriverOwnsAndNamesTheDriver) {
  fs::create_directories(sysfs_ / "bus/i2c/devices/1-0048");
  fs::create_directory_symlink("../../../bus/i2c/drivers/lm75", sysfs_ / "bus/i2c/devices/1-0048/driver");
  const auto found = ok("i2c_scan", {{"bus", 1}});
  bool listed = false;
  for (const auto& row : found["addresses"]) {
    if (row["address"] != 0x48) continue;
    listed = true;
    EXPECT_EQ(row["state"], "claimed");
    EXPECT_EQ(row["driver"], "lm75");
  }
  EXPECT_TRUE(listed) << found.dump();
  EXPECT_EQ(std::count(fake_.probed.begin(), fake_.probed.end(), 0x48), 0);
  EXPECT_EQ(fails("i2c_read", {{"bus", 1}, {"address", 0x48}, {"register", 0}}).name, "BUSY");
}

TEST_F(I2cToolsTest, ABusThatTimesOutEndsTheScanAtTheFirstTimeout) {
  fake_.stuck.insert(0x10);
  const auto stuck = fails("i2c_scan", {{"bus", 1}});
  EXPECT_EQ(stuck.name, "TIMEOUT");
  EXPECT_TRUE(has(stuck.message, "probing 0x10 on I2C bus 1: the bus timed out")) << stuck.message;
  EXPECT_EQ(fake_.probed.back(), 0x10) << "no address after the stuck one is probed";
  fake_.stuck.insert(0x48);
  EXPECT_EQ(fails("i2c_read", {{"bus", 1}, {"address", 0x48}, {"register", 0}}).name, "TIMEOUT");
}

TEST_F(I2cToolsTest, AnAdapterThatAnswersNoDeviceForAnAbsentChipIsScannedToo) {
  fake_.absent_error = ENODEV;  // as i2c-stub does
  const auto found = ok("i2c_scan", {{"bus", 1}});
  EXPECT_EQ(found["addresses"].size(), 4u) << found.dump();
  const auto silent = fails("i2c_read", {{"bus", 1}, {"address", 0x20}, {"register", 0}});
  EXPECT_EQ(silent.name, "READ_ERROR");
  EXPECT_TRUE(has(silent.message, "no answer")) << silent.message;
}

TEST_F(I2cToolsTest, ScanWithoutQuickCommandsProbesWithReadByte) {
  fake_.functionality &= ~static_cast<unsigned long>(I2C_FUNC_SMBUS_QUICK);
  ok("i2c_scan", {{"bus", 1}});
  for (const int size : fake_.probe_sizes) EXPECT_EQ(size, I2C_SMBUS_BYTE);
}

TEST_F(I2cToolsTest, ByteWordAndBlockRegistersRoundTripOnAWritableAddress) {
  const json at = {{"bus", 1}, {"address", 0x50}};
  EXPECT_EQ(ok("i2c_write", with(at, {{"register", 0x10}, {"value", 0xAB}}))["bytes_written"], 1);
  EXPECT_EQ(ok("i2c_read", with(at, {{"register", 0x10}}))["value"], 0xAB);

  ok("i2c_write", with(at, {{"mode", "word"}, {"register", 0x20}, {"value", 0x1234}}));
  const auto word = ok("i2c_read", with(at, {{"mode", "word"}, {"register", 0x20}}));
  EXPECT_EQ(word["value"], 0x1234);
  EXPECT_EQ(word["hex"], "3412") << "SMBus sends the low byte first";

  ok("i2c_write", with(at, {{"mode", "i2c_block"}, {"register", 0x30}, {"data", {1, 2, 3, 4}}}));
  const auto block = ok("i2c_read", with(at, {{"mode", "i2c_block"}, {"register", 0x30}, {"length", 4}}));
  EXPECT_EQ(block["data"], json({1, 2, 3, 4}));
  EXPECT_EQ(block["hex"], "01020304");

  ok("i2c_write", with(at, {{"mode", "block"}, {"register", 0x40}, {"data", {9, 8, 7}}}));
  EXPECT_EQ(ok("i2c_read", with(at, {{"mode", "block"}, {"register", 0x40}}))["data"], json({9, 8, 7}));
}

TEST_F(I2cToolsTest, PlainTransfersWriteThenReadWithARepeatedStart) {
  const json at = {{"bus", 1}, {"address", 0x50}};
  EXPECT_EQ(ok("i2c_write", with(at, {{"mode", "transfer"}, {"data", {0x05, 0xDE, 0xAD}}}))["bytes_written"], 3);
  const auto read = ok("i2c_read", with(at, {{"mode", "transfer"}, {"write", {0x05}}, {"length", 2}}));
  EXPECT_EQ(read["hex"], "dead");
}

TEST_F(I2cToolsTest, AReadOnlyAddressIsReadButNeverWritten) {
  const json at = {{"bus", 1}, {"address", 0x48}};
  EXPECT_TRUE(call("i2c_read", with(at, {{"register", 1}})));
  const auto refused = fails("i2c_write", with(at, {{"register", 1}, {"value", 1}}));
  EXPECT_EQ(refused.name, "NOT_AUTHORIZED");
  EXPECT_TRUE(has(refused.message, "set write = true at i2c.buses[0].devices[0]")) << refused.message;
  // A register number before a read is fine; more is a write.
  EXPECT_TRUE(call("i2c_read", with(at, {{"mode", "transfer"}, {"write", {1}}, {"length", 1}})));
  const auto longer = fails("i2c_read", with(at, {{"mode", "transfer"}, {"write", {1, 2}}, {"length", 1}}));
  EXPECT_EQ(longer.name, "NOT_AUTHORIZED");
  EXPECT_TRUE(has(longer.message, "at most 1 byte")) << longer.message;
  EXPECT_TRUE(fake_.transfers_written.size() == 1) << "the refused transfer never reached the bus";
}

TEST_F(I2cToolsTest, ArgumentsAModeDoesNotTakeOrNeedsAreNamed) {
  const json at = {{"bus", 1}, {"address", 0x50}};
  EXPECT_EQ(fails("i2c_read", with(at, {{"mode", "word"}})).message, "params.register: required with mode word");
  EXPECT_EQ(fails("i2c_read", with(at, {{"mode", "i2c_block"}, {"register", 0}, {"length", 33}})).message,
            "params.length: 33 bytes: an I2C block read takes 1 to 32");
  EXPECT_EQ(fails("i2c_read", with(at, {{"mode", "transfer"}, {"length", 65}})).message,
            "params.length: 65 bytes: a transfer ([i2c] max_transfer_bytes) takes 1 to 64");
  EXPECT_EQ(fails("i2c_read", with(at, {{"length", 2}})).message, "params.length: not used with mode byte");
  EXPECT_EQ(fails("i2c_write", with(at, {{"register", 0}})).message, "params.value: required with mode byte");
  EXPECT_EQ(fails("i2c_write", with(at, {{"value", 256}})).message, "params.value: a byte is 0 to 255");
  std::vector<int> block(33, 1);
  EXPECT_EQ(fails("i2c_write", with(at, {{"mode", "block"}, {"register", 0}, {"data", block}})).message,
            "params.data: 33 bytes: an SMBus or I2C block takes 1 to 32");
  EXPECT_EQ(fails("i2c_write", with(at, {{"mode", "transfer"}, {"data", json::array()}})).message,
            "params.data: 0 bytes: a transfer ([i2c] max_transfer_bytes) takes 1 to 64");
  EXPECT_EQ(fails("i2c_write", with(at, {{"mode", "transfer"}, {"register", 1}, {"data", {1}}})).message,
            "params.register: not used with mode transfer");
  // What the schema refuses: reserved addresses, bytes out of range, unknown keys.
  EXPECT_EQ(fails("i2c_read", {{"bus", 1}, {"address", 0x78}}).code, rpc_code::kInvalidParams);
  EXPECT_EQ(fails("i2c_read", {{"bus", 1}, {"address", 3}}).code, rpc_code::kInvalidParams);
  EXPECT_EQ(fails("i2c_write", with(at, {{"mode", "transfer"}, {"data", {256}}})).code, rpc_code::kInvalidParams);
  EXPECT_EQ(fails("i2c_read", with(at, {{"force", true}})).code, rpc_code::kInvalidParams);
  EXPECT_EQ(fails("i2c_read", {{"bus", "one"}, {"address", 0x50}}).code, rpc_code::kInvalidParams);
  EXPECT_TRUE(fake_.transfers_written.empty());
}

TEST_F(I2cToolsTest, AMissingBusNamesTheOverlayAndTheModule) {
  fake_.path = "/dev/i2c-9";
  const auto missing = fails("i2c_scan", {{"bus", 1}});
  EXPECT_EQ(missing.name, "OPEN_ERROR");
  EXPECT_TRUE(has(missing.message, "/dev/i2c-1 does not exist")) << missing.message;
  EXPECT_TRUE(has(missing.message, "dtparam=i2c_arm=on"));
  EXPECT_TRUE(has(missing.message, "modprobe i2c-dev"));
}

TEST_F(I2cToolsTest, PermissionDeniedNamesTheI2cGroup) {
  fake_.open_error = EACCES;
  const auto denied = fails("i2c_read", {{"bus", 1}, {"address", 0x50}});
  EXPECT_EQ(denied.name, "NOT_AUTHORIZED");
  EXPECT_TRUE(has(denied.message, "the i2c group")) << denied.message;
  EXPECT_TRUE(has(denied.message, "SupplementaryGroups=i2c"));
}

TEST_F(I2cToolsTest, ASilentDeviceIsAReadErrorNotACrash) {
  const auto silent = fails("i2c_read", {{"bus", 1}, {"address", 0x20}, {"register", 0}});
  EXPECT_EQ(silent.name, "READ_ERROR");
  EXPECT_TRUE(has(silent.message, "reading register 0x00 of 0x20 on I2C bus 1: no answer")) << silent.message;
  EXPECT_EQ(fails("i2c_write", {{"bus", 1}, {"address", 0x20}, {"value", 0}}).name, "WRITE_ERROR");
}

TEST_F(I2cToolsTest, AnAdapterWithoutATransactionSaysSo) {
  fake_.functionality = I2C_FUNC_SMBUS_BYTE_DATA;
  const auto refused = fails("i2c_read", {{"bus", 1}, {"address", 0x50}, {"mode", "transfer"}, {"length", 1}});
  EXPECT_TRUE(has(refused.message, "cannot do plain I2C transfers")) << refused.message;
}

TEST_F(I2cToolsTest, ADriverOwnedAddressWithForceIsSelectedWithForce) {
  I2cConfig config = settings_.i2c();
  config.buses[0].devices[0].force = true;
  settings_.set_i2c(config);
  fs::create_directories(sysfs_ / "bus/i2c/devices/1-0048");
  fake_.busy.insert(0x48);
  EXPECT_TRUE(call("i2c_read", {{"bus", 1}, {"address", 0x48}, {"register", 0}}));
  EXPECT_TRUE(fake_.forced);
}

TEST_F(I2cToolsTest, TransfersThatWentThroughAreEachDevicesLastOne) {
  auto interest = events_.want(EventKind::BusTransfer);
  std::vector<std::string> published;
  auto subscription = events_.subscribe([&](const Event& event) {
    if (event.kind == EventKind::BusTransfer) published.push_back(event.source);
  });
  ok("i2c_read", {{"bus", 1}, {"address", 0x48}, {"register", 0}});
  ok("i2c_write", {{"bus", 1}, {"address", 0x50}, {"mode", "transfer"}, {"data", {0, 1, 2}}});
  fails("i2c_write", {{"bus", 1}, {"address", 0x48}, {"register", 0}, {"value", 1}});  // refused: not a transfer
  ok("i2c_read", {{"bus", 1}, {"address", 0x50}, {"mode", "transfer"}, {"write", {0}}, {"length", 64}});
  EXPECT_EQ(published, (std::vector<std::string>{"i2c-1-0x48", "i2c-1-0x50", "i2c-1-0x50"}));
  const auto devices = transfers_.describe(settings_)["i2c"];
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[0]["name"], "thermometer");
  EXPECT_EQ(devices[0]["last"]["tool"], "i2c_read");
  EXPECT_EQ(devices[0]["last"]["register"], 0);
  EXPECT_EQ(devices[0]["last"]["read"], (json{{"hex", "00"}, {"bytes", 1}}));
  EXPECT_EQ(devices[1]["last"]["tool"], "i2c_read") << "the latest of the two";
  EXPECT_EQ(devices[1]["last"]["read"]["bytes"], 64);
  EXPECT_EQ(devices[1]["last"]["sent"]["hex"], "00");
  EXPECT_FALSE(devices[2].contains("last")) << "never used";
  // A write's data is what it sent; a device no longer configured is forgotten.
  ok("i2c_write", {{"bus", 1}, {"address", 0x50}, {"register", 7}, {"mode", "word"}, {"value", 0x1234}});
  EXPECT_EQ(transfers_.describe(settings_)["i2c"][1]["last"]["sent"]["hex"], "3412");
  I2cConfig fewer = settings_.i2c();
  fewer.buses[0].devices.erase(fewer.buses[0].devices.begin() + 1);
  settings_.set_i2c(fewer);
  transfers_.keep_configured(settings_);
  fewer.buses[0].devices.push_back({0x50, "eeprom", true, false});
  settings_.set_i2c(fewer);
  EXPECT_FALSE(transfers_.describe(settings_)["i2c"][2].contains("last"));
}

TEST_F(I2cToolsTest, ALongTransferIsKeptCut) {
  settings_.set_i2c([&] {
    auto config = settings_.i2c();
    config.max_transfer_bytes = 256;
    return config;
  }());
  ok("i2c_read", {{"bus", 1}, {"address", 0x50}, {"mode", "transfer"}, {"length", 200}});
  const auto read = transfers_.describe(settings_)["i2c"][1]["last"]["read"];
  EXPECT_EQ(read["bytes"], 200);
  EXPECT_EQ(read["hex"].get<std::string>().size(), 2 * LastTransfers::kKeptBytes);
  EXPECT_EQ(read["cut"], true);
}

}  // namespace
}  // namespace mcpud::buses
