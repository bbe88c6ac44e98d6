// SPDX-License-Identifier: MIT
// mcpud bridging mcpud's own MCP/U firmware: the UnoBasic sketch as mcu-sim on
// a pty, and the real Uno build running in simavr. mcpud opens the device's pty
// through a symlink, as it would /dev/serial/by-id/...; the firmware's side
// channel (stdin/stdout) injects voltages and reports pin changes.

#include <filesystem>

#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"
#include "support/line_client.hpp"
#include "support/serial_device.hpp"

namespace mcpud::it {
namespace {

// The sketch's pins: LED on 13, a buffered analog input on A0 (pin 14).
constexpr int kLed = 13;
constexpr int kSensor = 14;

class BridgeFirmware : public ::testing::Test {
 protected:
  // Starts the device program (which prints "pty <path>" and links it), then mcpud bridging it as "uno".
  void start(std::vector<std::string> argv) {
    link_ = (daemon_.temp_dir().path() / "ttyACM0").string();
    argv.insert(argv.end(), {"--link", link_, "--adc", "0=1650"});
    device_ = std::make_unique<mcpu_test::ChildProcess>(argv);
    std::string line;  // simavr prints what it loaded first
    for (int i = 0; i < 10 && line.rfind("pty ", 0) != 0; ++i) line = device_->readLine(30);
    ASSERT_EQ(line.rfind("pty ", 0), 0u) << "the device program did not start: '" << line << "'";
    const std::string config =
        "device = \"pi\"\nboard = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n"
        "[[bridges]]\nid = \"uno\"\nport = \"" +
        link_ + "\"\nreset_wait_ms = 100\ntimeout_ms = 5000\n";
    port_ = daemon_.start_tcp({"--config", daemon_.write_file("mcpud.toml", config), "--log-level", "debug"});
    ASSERT_NE(port_, 0);
    client_ = LineClient::connect_tcp(port_);
    ASSERT_TRUE(client_);
    ASSERT_TRUE(eventually([&] { return has_tool("uno__gpio_write"); }, 60s, 100ms))
        << "the firmware's tools never appeared";
  }

  json listing() { return client_->result("list_tools", json::object(), 10s); }
  json tool(const std::string& name) {
    const json all = listing();  // kept alive: a range-for over listing()["tools"] would dangle
    for (const auto& t : all["tools"]) {
      if (t["name"] == name) return t;
    }
    return json();
  }
  bool has_tool(const std::string& name) { return !tool(name).is_null(); }

  // Writes the LED through mcpud and waits for the device to report the pin change.
  void expect_led_follows() {
    EXPECT_EQ(client_->result("uno__gpio_write", {{"pin", kLed}, {"value", true}}, 10s)["value"], true);
    EXPECT_TRUE(device_->waitFor("pin 13 1", 10)) << "the simulated pin 13 did not go high";
    EXPECT_EQ(client_->result("uno__gpio_write", {{"pin", kLed}, {"value", false}}, 10s)["value"], false);
    EXPECT_TRUE(device_->waitFor("pin 13 0", 10)) << "the simulated pin 13 did not go low";
  }

  // Reads the injected voltage through mcpud, then a new one after injecting it.
  void expect_adc_reads_injected_voltage() {
    EXPECT_NEAR(client_->result("uno__adc_read", {{"pin", kSensor}}, 10s)["mv"].get<double>(), 1650, 10);
    device_->send("adc 0 4000");
    ASSERT_TRUE(device_->waitFor("ok adc", 10));
    EXPECT_NEAR(client_->result("uno__adc_read", {{"pin", kSensor}}, 10s)["mv"].get<double>(), 4000, 10);
  }

  // The same bridged tools through standard MCP on the same connection: the
  // structuredContent of a successful tools/call.
  json mcp_call(const std::string& name, const json& arguments) {
    const json reply = client_->result("tools/call", {{"name", name}, {"arguments", arguments}}, 10s);
    EXPECT_EQ(reply["isError"], false) << reply.dump();
    return reply["structuredContent"];
  }

  void expect_mcp_drives_the_device() {
    client_->result("initialize",
                    {{"protocolVersion", "2025-06-18"},
                     {"capabilities", json::object()},
                     {"clientInfo", {{"name", "bridge-test"}, {"version", "1"}}}},
                    10s);
    EXPECT_EQ(mcp_call("uno__gpio_write", {{"pin", kLed}, {"value", true}})["value"], true);
    EXPECT_TRUE(device_->waitFor("pin 13 1", 10)) << "MCP: the simulated pin 13 did not go high";
    device_->send("adc 0 2500");
    ASSERT_TRUE(device_->waitFor("ok adc", 10));
    EXPECT_NEAR(mcp_call("uno__adc_read", {{"pin", kSensor}})["mv"].get<double>(), 2500, 10);
  }

  DaemonProcess daemon_;
  std::string link_;
  std::unique_ptr<mcpu_test::ChildProcess> device_;
  int port_ = 0;
  std::optional<LineClient> client_;
};

TEST_F(BridgeFirmware, McuSimToolsAreBridgedWithTheFirmwaresSchemas) {
  start({MCU_SIM_BINARY, "--banner", "booting uno-demo"});
  EXPECT_EQ(tool("uno__blink")["inputSchema"]["properties"]["times"]["maximum"], 20) << "the firmware's own schema";
  EXPECT_EQ(client_->result("uno__get_info", json::object(), 10s)["device"], "uno-demo");
  expect_led_follows();
  expect_adc_reads_injected_voltage();
  const json bad = client_->call("uno__blink", {{"times", 50}});
  EXPECT_TRUE(is_error(bad, -32602)) << "checked by mcpud against the firmware's schema";
}

TEST_F(BridgeFirmware, McuSimBufferedPinIsDrainedThroughItsCursor) {
  start({MCU_SIM_BINARY});
  json buffer;
  ASSERT_TRUE(eventually(
      [&] {
        buffer = client_->result("get_pin_buffer", {{"pin", "uno__sensor"}});
        return buffer["values"].size() >= 10;
      },
      30s))
      << buffer.dump();
  const double raw_1650 = buffer["values"][0].get<double>();
  EXPECT_NEAR(raw_1650, 1650.0 * 1023 / 5000, 2) << "the samples are the injected voltage in ADC counts";
  const json summary = client_->result("get_pin_summary", {{"pin", "uno__sensor"}});
  EXPECT_GE(summary["samples"].get<int>(), 10);
}

TEST_F(BridgeFirmware, McuSimWithoutSchemasGetsFallbackSchemas) {
  start({MCU_SIM_BINARY, "--no-schemas"});
  EXPECT_EQ(tool("uno__gpio_write")["inputSchema"]["required"], json({"pin", "value"}));
  EXPECT_TRUE(is_error(client_->call("uno__gpio_write", {{"pin", kLed}, {"value", 1}}), -32602));
  expect_led_follows();
}

#if MCU_HAVE_AVR
TEST_F(BridgeFirmware, UnoBuildInSimavrDrivesPin13AndReadsTheInjectedVoltage) {
  start({MCU_SIMAVR_BINARY, MCU_AVR_ELF_NOSCHEMAS});
  EXPECT_EQ(tool("uno__gpio_write")["inputSchema"]["required"], json({"pin", "value"})) << "AVR: fallback schema";
  expect_led_follows();
  expect_adc_reads_injected_voltage();
  expect_mcp_drives_the_device();
}
#endif

}  // namespace
}  // namespace mcpud::it
