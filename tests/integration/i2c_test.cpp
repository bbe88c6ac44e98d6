// SPDX-License-Identifier: MIT
// The I2C tools through the real mcpud over MCP/U on TCP on the kernel's
// device nodes (a board without pins; the simulated board's own buses are
// sim_buses_test's), for what needs no I2C hardware: the tools are offered
// only with a configured bus (a call
// without one names the section to add); an
// unconfigured bus or address, a write to a read-only address and an address
// a kernel driver owns (a sysfs tree of the test's own) are refused with the
// key or driver to look at; a missing /dev/i2c-N names what to enable; bad
// arguments are named; --check-config names the key of a bad [i2c] table.
// Real transfers are proven on a kernel with i2c-stub (tests/kernel).

#include <filesystem>
#include <map>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

namespace fs = std::filesystem;

class I2cTest : public ::testing::Test {
 protected:
  // mcpud with bus 1 (0x48 read-only, 0x50 writable, 0x49 forced) and device
  // nodes and sysfs under the test's directory.
  void start(const std::string& more = "") {
    const auto dir = daemon_.temp_dir().path();
    fs::create_directories(dir / "dev");
    fs::create_directories(dir / "sys/bus/i2c/devices");
    const std::string table = "\n[i2c]\ndev_root = \"" + (dir / "dev").string() + "\"\nsysfs_root = \"" +
                              (dir / "sys").string() +
                              "\"\n[[i2c.buses]]\nbus = 1\n"
                              "devices = [{address = 0x48, name = \"thermometer\"}, {address = 0x50, write = true}, "
                              "{address = 0x49, write = true, force = true}]\n" +
                              more;
    port_ = daemon_.start_tcp({"--config", daemon_.write_file("mcpud.toml", no_pins_config_toml() + table)});
    ASSERT_NE(port_, 0);
    client_ = LineClient::connect_tcp(port_);
    ASSERT_TRUE(client_);
  }

  json call(const std::string& method, const json& params) { return client_->call(method, params, next_id_++, 10s); }
  std::string message(const json& reply) { return reply["error"].value("message", ""); }

  // A kernel device at 1-00AA bound to `driver`, as sysfs shows it.
  void declare(const std::string& name, const std::string& driver) {
    const auto sys = daemon_.temp_dir().path() / "sys/bus/i2c";
    fs::create_directories(sys / "drivers" / driver);
    fs::create_directories(sys / "devices" / name);
    fs::create_directory_symlink("../../../bus/i2c/drivers/" + driver, sys / "devices" / name / "driver");
  }

  DaemonProcess daemon_;
  int port_ = 0;
  int next_id_ = 1;
  std::optional<LineClient> client_;
};

bool listed(const json& listing, const std::string& name) {
  for (const auto& tool : listing["tools"]) {
    if (tool["name"] == name) return true;
  }
  return false;
}

TEST_F(I2cTest, TheToolsAreOfferedOnlyWhenABusIsConfigured) {
  DaemonProcess plain;
  const int port = plain.start_tcp({"--config", plain.write_file("plain.toml", sim_config_toml())});
  ASSERT_NE(port, 0);
  auto other = LineClient::connect_tcp(port);
  ASSERT_TRUE(other);
  EXPECT_FALSE(listed(other->result("list_tools", json::object(), 10s), "i2c_read"));
  // Calling one anyway says which section would offer it.
  const json absent = other->call("i2c_scan", {{"bus", 1}}, 1, 10s);
  EXPECT_TRUE(is_error(absent, -32601)) << absent.dump();
  EXPECT_TRUE(contains(absent["error"].value("message", ""),
                       "Method not found: i2c_scan (no I2C bus is configured: list one in [[i2c.buses]]"))
      << absent.dump();
  const json spi = other->call("spi_transfer", {{"device", "x"}}, 2, 10s);
  EXPECT_TRUE(contains(spi["error"].value("message", ""), "no SPI device is configured: list one in [[spi.devices]]"))
      << spi.dump();

  start();
  const json listing = client_->result("list_tools", json::object(), 10s);
  for (const char* name : {"i2c_scan", "i2c_read", "i2c_write"}) EXPECT_TRUE(listed(listing, name)) << name;
}

TEST_F(I2cTest, AnUnconfiguredBusOrAddressIsRefusedNamingTheKey) {
  start();
  const json bus = call("i2c_read", {{"bus", 2}, {"address", 0x48}});
  EXPECT_TRUE(is_error(bus, -32020, "NOT_AUTHORIZED")) << bus.dump();
  EXPECT_TRUE(contains(message(bus), "I2C bus 2 is not configured (1 is): add [[i2c.buses]] with bus = 2"));
  EXPECT_TRUE(is_error(call("i2c_scan", {{"bus", 0}}), -32020, "NOT_AUTHORIZED"));
  const json address = call("i2c_read", {{"bus", 1}, {"address", 0x51}});
  EXPECT_TRUE(is_error(address, -32020, "NOT_AUTHORIZED")) << address.dump();
  EXPECT_TRUE(contains(message(address), "add {address = 0x51} to i2c.buses[0].devices"));
}

TEST_F(I2cTest, AWriteToAReadOnlyAddressIsRefusedNamingTheKeyToSet) {
  start();
  const json refused = call("i2c_write", {{"bus", 1}, {"address", 0x48}, {"register", 1}, {"value", 0}});
  EXPECT_TRUE(is_error(refused, -32020, "NOT_AUTHORIZED")) << refused.dump();
  EXPECT_TRUE(
      contains(message(refused), "0x48 on I2C bus 1 is read-only: set write = true at i2c.buses[0].devices[0]"));
  // A read-only address's transfer writes a register number at most.
  const json transfer =
      call("i2c_read", {{"bus", 1}, {"address", 0x48}, {"mode", "transfer"}, {"write", {1, 2}}, {"length", 1}});
  EXPECT_TRUE(is_error(transfer, -32020, "NOT_AUTHORIZED")) << transfer.dump();
}

TEST_F(I2cTest, AnAddressAKernelDriverOwnsIsRefusedNamingTheDriver) {
  start();
  declare("1-0048", "lm75");
  const json refused = call("i2c_read", {{"bus", 1}, {"address", 0x48}, {"register", 0}});
  EXPECT_TRUE(is_error(refused, -32040, "BUSY")) << refused.dump();
  EXPECT_TRUE(contains(message(refused), "kernel driver 'lm75' (1-0048)"));
  EXPECT_TRUE(contains(message(refused), "force = true at i2c.buses[0].devices[0]"));
}

TEST_F(I2cTest, AMissingBusNamesTheOverlayAndTheModule) {
  start();
  for (const auto& [tool, args] : {std::pair{"i2c_scan", json{{"bus", 1}}},
                                   {"i2c_read", json{{"bus", 1}, {"address", 0x50}}},
                                   {"i2c_write", json{{"bus", 1}, {"address", 0x50}, {"value", 1}}}}) {
    const json missing = call(tool, args);
    EXPECT_TRUE(is_error(missing, -32032, "OPEN_ERROR")) << tool << ": " << missing.dump();
    EXPECT_TRUE(contains(message(missing), "/dev/i2c-1 does not exist"));
    EXPECT_TRUE(contains(message(missing), "dtparam=i2c_arm=on"));
    EXPECT_TRUE(contains(message(missing), "modprobe i2c-dev"));
  }
}

TEST_F(I2cTest, AFileThatIsNotAnI2cAdapterIsRefusedNotUsed) {
  start();
  daemon_.write_file("dev/i2c-1", "not a device");
  const json refused = call("i2c_read", {{"bus", 1}, {"address", 0x50}});
  EXPECT_TRUE(is_error(refused, -32032, "OPEN_ERROR")) << refused.dump();
  EXPECT_TRUE(contains(message(refused), "is not an i2c-dev device"));
}

TEST_F(I2cTest, BadArgumentsAreNamed) {
  start();
  EXPECT_TRUE(is_error(call("i2c_read", {{"bus", 1}, {"address", 0x78}}), -32602));
  EXPECT_TRUE(is_error(call("i2c_read", {{"bus", 1}}), -32602));
  EXPECT_TRUE(
      is_error(call("i2c_write", {{"bus", 1}, {"address", 0x50}, {"mode", "transfer"}, {"data", {300}}}), -32602));
  EXPECT_TRUE(is_error(call("i2c_read", {{"bus", 1}, {"address", 0x50}, {"mode", "dword"}}), -32602));
  const json needs = call("i2c_read", {{"bus", 1}, {"address", 0x50}, {"mode", "word"}});
  EXPECT_TRUE(is_error(needs, -32602, "INVALID_ARGUMENT")) << needs.dump();
  EXPECT_TRUE(contains(message(needs), "params.register: required with mode word"));
  const json big = call("i2c_read", {{"bus", 1}, {"address", 0x50}, {"mode", "transfer"}, {"length", 257}});
  EXPECT_TRUE(contains(message(big), "params.length: 257 bytes: a transfer ([i2c] max_transfer_bytes) takes 1 to 256"))
      << big.dump();
}

TEST_F(I2cTest, OverMcpTheToolsCarryTheirHintsAndARefusalIsAnErrorResult) {
  start();
  const json init = call("initialize", {{"protocolVersion", "2025-06-18"},
                                        {"capabilities", json::object()},
                                        {"clientInfo", {{"name", "i2c-test"}, {"version", "1"}}}});
  ASSERT_TRUE(init.contains("result")) << init.dump();
  std::map<std::string, json> by_name;
  json params = json::object();
  for (int page = 0; page < 20; ++page) {  // the listing comes in pages of [mcp] page_bytes
    const json listed = call("tools/list", params)["result"];
    for (const auto& tool : listed["tools"]) by_name[tool["name"]] = tool;
    if (!listed.contains("nextCursor")) break;
    params = {{"cursor", listed["nextCursor"]}};
  }
  ASSERT_TRUE(by_name.contains("i2c_read") && by_name.contains("i2c_write"));
  EXPECT_EQ(by_name["i2c_read"]["annotations"].value("readOnlyHint", false), true);
  EXPECT_EQ(by_name["i2c_write"]["annotations"].value("destructiveHint", false), true);
  const json refused =
      call("tools/call",
           {{"name", "i2c_write"}, {"arguments", {{"bus", 1}, {"address", 0x48}, {"register", 1}, {"value", 0}}}});
  ASSERT_TRUE(refused.contains("result")) << refused.dump();
  EXPECT_EQ(refused["result"]["isError"], true);
  EXPECT_TRUE(contains(refused["result"]["content"][0]["text"].get<std::string>(), "set write = true at i2c.buses[0]"));
}

TEST(I2cConfigCheck, CheckConfigNamesTheKeyOfABadI2cTable) {
  for (const auto& [table, expected] :
       {std::pair{"[[i2c.buses]]\nbus = 1\ndevices = [{address = 0x48}, {address = 0x48}]\n",
                  "i2c.buses[0].devices[1].address: 0x48 is listed twice on bus 1"},
        {"[[i2c.buses]]\nbus = 1\ndevices = [{address = 0x7c}]\n", "i2c.buses[0].devices[0].address"},
        {"[[i2c.buses]]\nbus = 1\ndevices = [{address = 0x48, writable = true}]\n", "i2c.buses[0].devices[0]"},
        {"[i2c]\nmax_transfer_bytes = 9000\n", "i2c.max_transfer_bytes"}}) {
    DaemonProcess daemon;
    ASSERT_TRUE(daemon.start({"--check-config", daemon.write_file("bad.toml", table)}));
    EXPECT_EQ(daemon.wait_exit(10s), 1) << table;
    EXPECT_TRUE(contains(daemon.log(), expected)) << daemon.log();
  }
  DaemonProcess daemon;
  ASSERT_TRUE(daemon.start(
      {"--check-config", daemon.write_file("good.toml", "[[i2c.buses]]\nbus = 1\ndevices = [{address = 0x76}]\n")}));
  ASSERT_EQ(daemon.wait_exit(10s), 0) << daemon.log();
  const json resolved = json::parse(daemon.stdout_text(), nullptr, false);
  EXPECT_EQ(resolved["i2c"]["buses"][0]["devices"][0]["write"], false) << "read-only unless it says so";
  EXPECT_EQ(resolved["i2c"]["max_transfer_bytes"], 256);
}

}  // namespace
}  // namespace mcpud::it
