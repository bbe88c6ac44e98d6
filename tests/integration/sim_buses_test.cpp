// SPDX-License-Identifier: MIT
// The simulated board's buses through the real mcpud on its built-in board (no
// --config), as `make run` starts it: list_tools offers the bus tools; each of
// them works, and refuses what the allow list refuses (an address it does not
// list, a write to a read-only address, the address a kernel driver owns),
// over MCP/U on TCP and over MCP on stdio alike; docs/hardware.md's BME280,
// EEPROM, MCP3008 and DS18B20 steps give what the real parts would; and a
// thermometer's 750 ms conversion does not hold up another client.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "../fixtures/bme280_compensation.hpp"
#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

constexpr int kBme280 = 0x76, kEeprom = 0x50, kLm75 = 0x48, kClock = 0x68;

// A call that works and one that is refused, with what the refusal says.
struct BusCase {
  std::string tool;
  json good;
  json refused;
  int code;             // the refusal's JSON-RPC code
  std::string name;     // its error.data.code, if a domain error
  std::string message;  // a part of its message
};

const std::vector<BusCase>& bus_cases() {
  static const std::vector<BusCase> cases{
      {"i2c_scan", {{"bus", 1}}, {{"bus", 2}}, -32020, "NOT_AUTHORIZED", "I2C bus 2 is not configured (1 is)"},
      {"i2c_read",
       {{"bus", 1}, {"address", kBme280}, {"register", 0xD0}},
       {{"bus", 1}, {"address", 0x51}, {"register", 0}},
       -32020,
       "NOT_AUTHORIZED",
       "0x51 on I2C bus 1 is not configured: add {address = 0x51} to i2c.buses[0].devices"},
      {"i2c_write",
       {{"bus", 1}, {"address", kEeprom}, {"mode", "transfer"}, {"data", {0x00, 0x40, 0x6d, 0x63}}},
       {{"bus", 1}, {"address", kLm75}, {"register", 1}, {"value", 0}},
       -32020,
       "NOT_AUTHORIZED",
       "0x48 on I2C bus 1 is read-only: set write = true at i2c.buses[0].devices[2]"},
      {"i2c_read",
       {{"bus", 1}, {"address", kLm75}, {"mode", "i2c_block"}, {"register", 0}, {"length", 2}},
       {{"bus", 1}, {"address", kClock}, {"register", 0}},
       -32040,
       "BUSY",
       "0x68 on I2C bus 1 belongs to kernel driver 'rtc-ds1307' (1-0068): use the driver's interface (hwmon, IIO), "
       "or set force = true at i2c.buses[0].devices[3]"},
      {"spi_transfer",
       {{"bus", 0}, {"chip_select", 0}, {"data", {1, 0xB0, 0}}},
       {{"bus", 0}, {"chip_select", 1}, {"data", {1, 0x80, 0}}},
       -32020,
       "NOT_AUTHORIZED",
       "spidev0.1 is not configured (spidev0.0 is): add [[spi.devices]]"},
      {"onewire_list", json::object(), {{"bus", 1}}, -32602, "", "bus: unknown property"},
  };
  return cases;
}

std::string error_text(const json& reply) { return reply["error"].value("message", ""); }

std::set<std::string> tool_names(const json& tools) {
  std::set<std::string> names;
  for (const auto& tool : tools) names.insert(tool["name"].get<std::string>());
  return names;
}

const std::vector<std::string> kBusTools{"i2c_scan", "i2c_read", "i2c_write", "spi_transfer", "onewire_list"};

class SimBusesTest : public SimDaemonTest {
 protected:
  json call(const std::string& tool, const json& args) { return client().call(tool, args, next_id_++, 10s); }
  json result(const std::string& tool, const json& args) {
    const json reply = call(tool, args);
    EXPECT_TRUE(reply.contains("result")) << tool << " " << args.dump() << ": " << reply.dump();
    return reply.value("result", json::object());
  }
  int next_id_ = 1;
};

TEST_F(SimBusesTest, ListToolsOffersTheBusToolsAndTheThermometers) {
  const json listing = client().result("list_tools", json::object(), 10s);
  const auto names = tool_names(listing["tools"]);
  for (const auto& tool : kBusTools) EXPECT_TRUE(names.contains(tool)) << tool;
  std::map<std::string, json> pins;
  for (const auto& pin : listing["pins"]) pins[pin["name"]] = pin;
  for (const char* thermometer : {"tank", "outdoor"}) {
    ASSERT_TRUE(pins.contains(thermometer)) << listing["pins"].dump();
    EXPECT_EQ(pins[thermometer]["unit"], "degC");
    EXPECT_EQ(pins[thermometer]["quantity"], "temperature");
  }
}

TEST_F(SimBusesTest, EveryBusToolWorksAndRefusesOverMcpu) {
  for (const auto& c : bus_cases()) {
    const json good = call(c.tool, c.good);
    EXPECT_TRUE(good.contains("result")) << c.tool << " " << c.good.dump() << ": " << good.dump();
    const json refused = call(c.tool, c.refused);
    EXPECT_TRUE(is_error(refused, c.code, c.name)) << c.tool << ": " << refused.dump();
    EXPECT_TRUE(contains(error_text(refused), c.message)) << c.tool;
  }
}

// One MCP client of `mcpud --stdio` on the built-in board: its stdin is a FIFO
// the test writes requests into, its replies are found on stdout by id.
class StdioMcp {
 public:
  explicit StdioMcp(DaemonProcess& daemon) : daemon_(daemon), fifo_(daemon.temp_dir().path() / "stdin") {}
  ~StdioMcp() {
    if (writer_ >= 0) ::close(writer_);  // end of stdin: mcpud --stdio stops
  }
  StdioMcp(const StdioMcp&) = delete;
  StdioMcp& operator=(const StdioMcp&) = delete;

  bool start() {
    if (::mkfifo(fifo_.c_str(), 0600) != 0) return false;
    if (!daemon_.start_program("/bin/sh", {"-c", "exec '" MCPUD_BINARY "' --stdio < '" + fifo_.string() + "'"}))
      return false;
    // A FIFO opens for writing once its reader has it open: mcpud's stdin.
    if (!eventually([&] { return (writer_ = ::open(fifo_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) >= 0; }, 10s))
      return false;
    ::fcntl(writer_, F_SETFL, 0);
    return call("initialize", {{"protocolVersion", "2025-06-18"},
                               {"capabilities", json::object()},
                               {"clientInfo", {{"name", "sim-buses-test"}, {"version", "1"}}}})
        .contains("result");
  }

  json call(const std::string& method, const json& params) {
    const int id = next_id_++;
    const std::string line = request_text(method, params, id) + "\n";
    if (::write(writer_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) return nullptr;
    json reply;
    EXPECT_TRUE(eventually(
        [&] {
          std::istringstream out(daemon_.stdout_text());
          for (std::string text; std::getline(out, text);) {
            const json parsed = json::parse(text, nullptr, false);
            if (parsed.is_object() && parsed.value("id", json()) == id) reply = parsed;
          }
          return !reply.is_null();
        },
        10s, 5ms))
        << method << ": no reply; " << daemon_.log();
    return reply;
  }

  // Every page of tools/list.
  json tools() {
    json tools = json::array(), params = json::object();
    for (int page = 0; page < 20; ++page) {
      const json listed = call("tools/list", params)["result"];
      for (const auto& tool : listed["tools"]) tools.push_back(tool);
      if (!listed.contains("nextCursor")) break;
      params = {{"cursor", listed["nextCursor"]}};
    }
    return tools;
  }

 private:
  DaemonProcess& daemon_;
  std::filesystem::path fifo_;
  int writer_ = -1;
  int next_id_ = 1;
};

TEST(SimBusesOverMcp, EveryBusToolWorksAndRefusesOverStdio) {
  DaemonProcess daemon;
  StdioMcp mcp(daemon);
  ASSERT_TRUE(mcp.start()) << daemon.log();
  const auto names = tool_names(mcp.tools());
  for (const auto& tool : kBusTools) EXPECT_TRUE(names.contains(tool)) << tool;
  for (const auto& c : bus_cases()) {
    const json good = mcp.call("tools/call", {{"name", c.tool}, {"arguments", c.good}});
    ASSERT_TRUE(good.contains("result")) << c.tool << ": " << good.dump();
    EXPECT_FALSE(good["result"].value("isError", false)) << c.tool << ": " << good.dump();
    const json refused = mcp.call("tools/call", {{"name", c.tool}, {"arguments", c.refused}});
    if (c.code == -32602) {  // arguments against the schema: a protocol error, naming the argument
      EXPECT_TRUE(is_error(refused, -32602)) << c.tool << ": " << refused.dump();
      EXPECT_TRUE(contains(error_text(refused), "arguments." + c.message)) << c.tool;
      continue;
    }
    // A refusal is a tool error the model reads.
    ASSERT_TRUE(refused.contains("result")) << c.tool << ": " << refused.dump();
    EXPECT_TRUE(refused["result"].value("isError", false)) << refused.dump();
    EXPECT_TRUE(contains(refused["result"]["content"][0].value("text", ""), c.message)) << c.tool;
  }
}

// The steps of docs/hardware.md's BME280 walkthrough: chip id, calibration,
// a forced measurement, its status, the raw data; compensated by the test.
TEST_F(SimBusesTest, TheBme280WalkthroughReadsTheRoomsAirInSiUnits) {
  const json bme = {{"bus", 1}, {"address", kBme280}};
  const auto with = [&](json more) {
    json args = bme;
    args.update(more);
    return args;
  };
  EXPECT_EQ(result("i2c_read", with({{"register", 0xD0}}))["value"], 0x60);
  const auto low = result("i2c_read", with({{"mode", "i2c_block"}, {"register", 0x88}, {"length", 26}}))["data"];
  const auto high = result("i2c_read", with({{"mode", "i2c_block"}, {"register", 0xE1}, {"length", 7}}))["data"];
  const auto calibration = testing::bme280_calibration(low.get<std::vector<int>>(), high.get<std::vector<int>>());
  result("i2c_write", with({{"register", 0xF2}, {"value", 0x01}}));
  result("i2c_write", with({{"register", 0xF4}, {"value", 0x25}}));
  ASSERT_TRUE(eventually(
      [&] {
        return (result("i2c_read", with({{"register", 0xF3}}))["value"].get<int>() & 0x08) == 0;
      },
      10s, 5ms))
      << "the measurement never finished";
  const auto data = result("i2c_read", with({{"mode", "i2c_block"}, {"register", 0xF7}, {"length", 8}}))["data"];
  const auto air = testing::bme280_compensate(calibration, data.get<std::vector<int>>());
  EXPECT_GT(air.celsius, 15.0);
  EXPECT_LT(air.celsius, 30.0);
  EXPECT_GT(air.pascal / 100, 980.0) << "hPa";
  EXPECT_LT(air.pascal / 100, 1040.0) << "hPa";
  EXPECT_GT(air.relative_humidity, 30.0);
  EXPECT_LT(air.relative_humidity, 60.0);
  // The chip went back to sleep mode: ctrl_meas reads mode 00.
  EXPECT_EQ(result("i2c_read", with({{"register", 0xF4}}))["value"], 0x24);
}

TEST_F(SimBusesTest, TheEepromReadsBackWhatWasWritten) {
  const json eeprom = {{"bus", 1}, {"address", kEeprom}};
  json write = eeprom;
  write.update({{"mode", "transfer"}, {"data", {0x01, 0x00, 'm', 'c', 'p', 'u', 'd'}}});
  EXPECT_EQ(result("i2c_write", write)["bytes_written"], 7);
  json read = eeprom;
  read.update({{"mode", "transfer"}, {"write", {0x01, 0x00}}, {"length", 6}});
  EXPECT_EQ(result("i2c_read", read)["hex"], "6d63707564ff") << "\"mcpud\", then an erased byte";
}

TEST_F(SimBusesTest, TheMcp3008WalkthroughReadsEachChannel) {
  std::vector<int> codes;
  for (int channel = 0; channel < 8; ++channel) {
    const auto rx =
        result("spi_transfer", {{"bus", 0}, {"chip_select", 0}, {"data", {1, 0x80 | channel << 4, 0}}})["data"];
    codes.push_back((rx[1].get<int>() & 0x03) << 8 | rx[2].get<int>());
  }
  EXPECT_EQ(codes[3], 512) << "a 1.65 V divider of the 3.3 V reference";
  const double tmp36_celsius = (codes[2] * 3.3 / 1024 - 0.5) * 100;
  EXPECT_GT(tmp36_celsius, 15);
  EXPECT_LT(tmp36_celsius, 30);
  for (int channel = 4; channel < 8; ++channel) EXPECT_EQ(codes[channel], 0) << "tied to ground";
  EXPECT_NE(codes[0], codes[1]);
  const json fast =
      call("spi_transfer", {{"bus", 0}, {"chip_select", 0}, {"data", {1, 0x80, 0}}, {"speed_hz", 2000000}});
  EXPECT_TRUE(is_error(fast, -32602, "INVALID_ARGUMENT")) << fast.dump();
  EXPECT_TRUE(contains(error_text(fast), "spi.devices[0].max_speed_hz"));
  const json wide = call("spi_transfer", {{"bus", 0}, {"chip_select", 0}, {"data", {1, 0}}, {"bits_per_word", 16}});
  EXPECT_TRUE(is_error(wide, -32602, "INVALID_ARGUMENT")) << wide.dump();
  EXPECT_TRUE(contains(error_text(wide), "the controller refuses 16 bits per word")) << "as a Pi's spi-bcm2835";
}

bool readable(const LineClient& client) {
  pollfd ready{client.fd(), POLLIN, 0};
  return ::poll(&ready, 1, 0) > 0;
}

// A thermometer's read waits 750 ms for its conversion: meanwhile another
// client is answered, however long it keeps asking.
TEST_F(SimBusesTest, AOneWireConversionDoesNotHoldUpAnotherClientsPing) {
  const auto ids = result("onewire_list", json::object())["devices"];
  ASSERT_EQ(ids.size(), 2u) << ids.dump();
  EXPECT_EQ(ids[0]["id"], "28-00000a1b2c3d");
  auto other = connect();
  ASSERT_TRUE(other);
  ASSERT_TRUE(client().send_line(request_text("sensor_read", {{"name", "tank"}}, 1)));
  int answered_during = 0;
  for (int id = 100; !readable(client()) && id < 100'000; ++id) {
    const json pong = other->call("ping", json::object(), id, 10s);
    ASSERT_TRUE(pong.contains("result")) << pong.dump();
    if (!readable(client())) ++answered_during;
  }
  EXPECT_GT(answered_during, 0) << "no ping was answered while the thermometer converted";
  const auto line = client().read_line(10s);
  ASSERT_TRUE(line);
  const json reading = json::parse(*line);
  ASSERT_TRUE(reading.contains("result")) << reading.dump();
  EXPECT_EQ(reading["result"]["unit"], "degC");
  EXPECT_GT(reading["result"]["value"].get<double>(), 14);
  EXPECT_LT(reading["result"]["value"].get<double>(), 20);
}

// With force = true the driver's address is shared: the clock's registers read.
TEST(SimBusesForced, ForceLetsAClientReadTheAddressADriverOwns) {
  DaemonProcess daemon;
  const std::string buses =
      "\n[[i2c.buses]]\nbus = 1\ndevices = [{address = 0x68, name = \"DS3231 RTC\", force = true}]\n";
  const int port = daemon.start_tcp({"--config", daemon.write_file("mcpud.toml", sim_config_toml() + buses)});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  const json time = client->call(
      "i2c_read", {{"bus", 1}, {"address", kClock}, {"mode", "i2c_block"}, {"register", 0}, {"length", 7}}, 1, 10s);
  ASSERT_TRUE(time.contains("result")) << time.dump();
  for (const auto& bcd : time["result"]["data"]) EXPECT_LE(bcd.get<int>() & 0x0F, 9) << time.dump();
  const json scan = client->call("i2c_scan", {{"bus", 1}}, 2, 10s);
  ASSERT_TRUE(scan.contains("result")) << scan.dump();
  json clock_row;
  for (const auto& row : scan["result"]["addresses"]) {
    if (row["address"] == kClock) clock_row = row;
  }
  EXPECT_EQ(clock_row.value("state", ""), "claimed") << scan.dump();
  EXPECT_EQ(clock_row.value("driver", ""), "rtc-ds1307") << "a driver's address is never probed, forced or not";
}

}  // namespace
}  // namespace mcpud::it
