// SPDX-License-Identifier: MIT
// mcpud bridging mcpud's own MCP/U firmware: the UnoBasic sketch as mcu-sim on
// a pty, and the real Uno build running in simavr. mcpud opens the device's pty
// through a symlink, as it would /dev/serial/by-id/...; the firmware's side
// channel (stdin/stdout) injects voltages and reports pin changes.

#include <filesystem>
#include <functional>

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
  // `more_config` is added to mcpud's configuration after the bridge.
  void start(std::vector<std::string> argv, const std::string& more_config = {}) {
    link_ = (daemon_.temp_dir().path() / "ttyACM0").string();
    argv.insert(argv.end(), {"--link", link_, "--adc", "0=1650"});
    device_ = std::make_unique<mcpu_test::ChildProcess>(argv);
    std::string line;  // simavr prints what it loaded first
    for (int i = 0; i < 10 && line.rfind("pty ", 0) != 0; ++i) line = device_->readLine(30);
    ASSERT_EQ(line.rfind("pty ", 0), 0u) << "the device program did not start: '" << line << "'";
    const std::string config =
        "device = \"pi\"\nboard = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n"
        "[[bridges]]\nid = \"uno\"\nport = \"" +
        link_ + "\"\nreset_wait_ms = 100\ntimeout_ms = 5000\n" + more_config;
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

// The firmware says nothing of what its tools do: over MCP each is titled with
// its device, carries the specification's cautious hints (a write that may
// destroy, beyond the board) and says whose word those are; the board's own
// tools beside them are mcpud's.
TEST_F(BridgeFirmware, McuSimToolsWithoutHintsAreListedCautiouslyAndSaySo) {
  start({MCU_SIM_BINARY});
  client_->result("initialize", {{"protocolVersion", "2025-11-25"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "walker"}, {"version", "1"}}}});
  const json tools = mcp_tools(*client_);
  int bridged = 0;
  for (const auto& tool : tools) {
    const std::string name = tool["name"];
    SCOPED_TRACE(name);
    ASSERT_TRUE(tool["title"].is_string() && !tool["title"].get<std::string>().empty());
    const json& hints = tool["annotations"];
    for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}) {
      ASSERT_TRUE(hints.contains(hint) && hints[hint].is_boolean()) << hint;
    }
    if (!name.starts_with("uno__")) {
      EXPECT_FALSE(tool.contains("_meta"));
      continue;
    }
    ++bridged;
    EXPECT_EQ(tool["title"], "uno: " + name.substr(5));
    EXPECT_EQ(hints, (json{{"readOnlyHint", false},
                           {"destructiveHint", true},
                           {"idempotentHint", false},
                           {"openWorldHint", true},
                           {"title", tool["title"]}}));
    EXPECT_EQ(tool["_meta"]["mcpud/hintsFrom"], "nobody");
  }
  EXPECT_GE(bridged, 4) << tools.dump();
}

// A bridged tool passes the same gate as the board's own: under
// [safety] confirm_tools it waits for a human (here the approve_pin button,
// looped back from a simulated output), a dry run says so without reaching the
// device, and under an emergency stop it is refused.
TEST_F(BridgeFirmware, McuSimToolsWaitForApprovalAndStopWithTheBoard) {
  start({MCU_SIM_BINARY}, R"(
[safety]
confirm_tools = ["uno__gpio_write"]
approve_pin = "approve_button"

[[pins]]
name = "approve_drive"
pin = 8
type = "digital_output"

[[pins]]
name = "approve_button"
pin = 9
type = "digital_input"
sim = { mode = "loopback", from = "approve_drive" }
sampling = { interval_ms = 10, edges = "both" }
)");
  const json dry = client_->result("uno__gpio_write", {{"pin", kLed}, {"value", true}, {"dry_run", true}}, 10s);
  EXPECT_EQ(dry["needs_approval"], true) << dry.dump();
  ASSERT_TRUE(client_->send_line(request_text("uno__gpio_write", {{"pin", kLed}, {"value", true}}, 7)));
  ASSERT_TRUE(daemon_.wait_for_log("approval 1: uno__gpio_write")) << daemon_.log();
  auto button = LineClient::connect_tcp(port_);
  ASSERT_TRUE(button);
  button->result("gpio_write", {{"pin", 8}, {"value", true}});
  const auto line = client_->read_line(10s);
  ASSERT_TRUE(line);
  EXPECT_EQ(json::parse(*line)["result"]["value"], true) << *line;
  EXPECT_TRUE(device_->waitFor("pin 13 1", 10)) << "the approved call did not reach the device";

  button->result("emergency_stop", {{"reason", "bridge test"}});
  // The board's stop calls the device's own: its LED, lit by the approved call, goes off.
  EXPECT_TRUE(device_->waitFor("pin 13 0", 10)) << "the device's emergency_stop was not called";
  EXPECT_TRUE(is_error(client_->call("uno__gpio_write", {{"pin", kLed}, {"value", false}}), -32072, "ESTOP_ACTIVE"));
  EXPECT_TRUE(is_error(client_->call("uno__gpio_write", {{"pin", kLed}, {"value", false}, {"dry_run", true}}), -32072,
                       "ESTOP_ACTIVE"));
  // The firmware marks none of its tools read-only: mcpud cannot tell a read
  // from a write, so every bridged tool but its stop waits for the reset.
  EXPECT_TRUE(is_error(client_->call("uno__adc_read", {{"pin", kSensor}}), -32072, "ESTOP_ACTIVE"));
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

// The messages `client` receives until one satisfies `wanted` (returned); null if none in time.
json next_message(LineClient& client, const std::function<bool(const json&)>& wanted, Deadline deadline = 10s) {
  for (;;) {
    const auto line = client.read_line(deadline);
    if (!line) return nullptr;
    json message = json::parse(*line, nullptr, false);
    if (wanted(message)) return message;
  }
}

json read_resource(LineClient& client, const std::string& uri) {
  const json read = client.result("resources/read", {{"uri", uri}}, 10s);
  return json::parse(read["contents"][0]["text"].get<std::string>());
}

bool lists(LineClient& client, const std::string& uri) {
  const json listed = client.result("resources/list", json::object(), 10s);
  for (const auto& resource : listed["resources"]) {
    if (resource["uri"] == uri) return true;
  }
  return false;
}

TEST_F(BridgeFirmware, McuSimPinsArePinResourcesWithLiveValuesThatComeAndGo) {
  start({MCU_SIM_BINARY});
  ASSERT_TRUE(eventually([&] { return lists(*client_, "mcpu://pins/uno__led"); }, 10s));
  EXPECT_TRUE(lists(*client_, "mcpu://pins/uno__sensor"));

  // A buffered pin: its type, device, sampling and latest sample.
  json sensor;
  ASSERT_TRUE(eventually(
      [&] {
        sensor = read_resource(*client_, "mcpu://pins/uno__sensor");
        return sensor.contains("value");
      },
      30s))
      << sensor.dump();
  EXPECT_EQ(sensor["type"], "adc_input");
  EXPECT_EQ(sensor["device"], "uno");
  EXPECT_EQ(sensor["pin"], kSensor);
  EXPECT_TRUE(sensor.contains("sampling"));
  EXPECT_NEAR(sensor["value"].get<double>(), 1650.0 * 1023 / 5000, 2);

  // An output: no value until the device reports one; then pushed to subscribers, and read.
  auto watcher = LineClient::connect_tcp(port_);
  ASSERT_TRUE(watcher);
  watcher->result("initialize",
                  {{"protocolVersion", "2025-06-18"},
                   {"capabilities", json::object()},
                   {"clientInfo", {{"name", "watcher"}, {"version", "1"}}}},
                  10s);
  EXPECT_EQ(watcher->result("resources/subscribe", {{"uri", "mcpu://pins/uno__led"}}), json::object());
  EXPECT_EQ(client_->result("uno__gpio_write", {{"pin", kLed}, {"value", true}}, 10s)["value"], true);
  const json changed = next_message(*watcher, [](const json& m) {
    return m.value("method", "") == "notifications/resources/updated" && m["params"]["uri"] == "mcpu://pins/uno__led";
  });
  ASSERT_FALSE(changed.is_null()) << "no update of the bridged pin was pushed";
  EXPECT_EQ(changed["params"]["event"], "pin_changed");
  EXPECT_EQ(changed["params"]["data"]["value"], true);
  EXPECT_EQ(changed["params"]["data"]["name"], "uno__led");
  const json led = read_resource(*client_, "mcpu://pins/uno__led");
  EXPECT_EQ(led["type"], "digital_output");
  EXPECT_EQ(led["value"], true);

  // The device goes: its pins leave the list, and MCP clients are told.
  device_.reset();
  const json gone = next_message(
      *watcher, [](const json& m) { return m.value("method", "") == "notifications/resources/list_changed"; });
  EXPECT_FALSE(gone.is_null()) << "no resources/list_changed when the device went away";
  EXPECT_FALSE(lists(*client_, "mcpu://pins/uno__led"));
  EXPECT_TRUE(is_error(client_->call("resources/read", {{"uri", "mcpu://pins/uno__led"}}), -32002));
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
