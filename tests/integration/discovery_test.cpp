// SPDX-License-Identifier: MIT
// The discovery sequence of the MCP/U reference client (seed 002): connect,
// get_info, list_tools, then call a tool it found.
#include <set>

#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using TcpDiscovery = SimDaemonTest;

TEST_F(TcpDiscovery, GetInfoReportsTheSimulatedLinuxDevice) {
  const json reply = client().call("get_info", json::object(), 1);
  ASSERT_EQ(reply.value("jsonrpc", ""), "2.0") << reply.dump();
  EXPECT_EQ(reply["id"], 1);
  const json& info = reply["result"];
  EXPECT_EQ(info["device"], "mcpud-sim");
  EXPECT_TRUE(info["version"].is_string());
  EXPECT_FALSE(info["version"].get<std::string>().empty());
  EXPECT_EQ(info["platform"], "linux");
  EXPECT_EQ(info["pin_count"], 16);
}

TEST_F(TcpDiscovery, GetInfoThenListToolsDescribesEveryPin) {
  // Exactly the reference client's two lines, ids 1 and 2, without params.
  ASSERT_TRUE(client().send_line(R"({"jsonrpc": "2.0", "id": 1, "method": "get_info"})"));
  const auto info_line = client().read_line();
  ASSERT_TRUE(info_line);
  const json info = json::parse(*info_line);
  ASSERT_EQ(info["id"], 1);
  ASSERT_TRUE(info.contains("result")) << info.dump();

  ASSERT_TRUE(client().send_line(R"({"jsonrpc": "2.0", "id": 2, "method": "list_tools"})"));
  const auto tools_line = client().read_line();
  ASSERT_TRUE(tools_line);
  const json reply = json::parse(*tools_line);
  ASSERT_EQ(reply["id"], 2);
  const json& listing = reply["result"];
  EXPECT_EQ(listing["device"], info["result"]["device"]);
  EXPECT_EQ(listing["version"], info["result"]["version"]);

  std::set<std::string> names;
  for (const auto& tool : listing["tools"]) {
    ASSERT_TRUE(tool["name"].is_string()) << tool.dump();
    EXPECT_TRUE(tool["description"].is_string()) << tool.dump();
    ASSERT_TRUE(tool["inputSchema"].is_object()) << tool.dump();
    EXPECT_EQ(tool["inputSchema"]["type"], "object") << tool.dump();
    names.insert(tool["name"].get<std::string>());
  }
  for (const char* builtin : {"gpio_write", "gpio_read", "pwm_write", "adc_read", "get_info", "get_pin_summary",
                              "get_pin_buffer", "get_pin_events"}) {
    EXPECT_TRUE(names.contains(builtin)) << builtin << " missing from list_tools";
  }

  const json& pins = listing["pins"];
  ASSERT_EQ(pins.size(), 16u) << pins.dump();
  const std::vector<std::tuple<int, std::string, std::string, bool>> expected{
      {2, "led", "digital_output", false},
      {3, "led_sense", "digital_input", true},
      {4, "button", "digital_input", true},
      {18, "fan", "pwm_output", false},
      {34, "light", "adc_input", true},
      {40, "room_temp", "sensor_input", true},
      {41, "room_humidity", "sensor_input", false},
      {43, "room_pressure", "sensor_input", false},
      {42, "cpu_temp", "sensor_input", true},
      {130, "tank", "sensor_input", true},
      {131, "outdoor", "sensor_input", false},
      {50, "heater", "digital_output", false},
      {51, "valve", "digital_output", false},
      {52, "pump", "pwm_output", false},
      {53, "forward", "digital_output", false},
      {54, "reverse", "digital_output", false},
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& [number, name, type, sampled] = expected[i];
    const json& pin = pins[i];
    EXPECT_EQ(pin["pin"], number) << pin.dump();
    EXPECT_EQ(pin["name"], name) << pin.dump();
    EXPECT_EQ(pin["type"], type) << pin.dump();
    EXPECT_TRUE(pin["description"].is_string()) << pin.dump();
    EXPECT_EQ(pin.contains("capabilities"), sampled) << pin.dump();
    EXPECT_EQ(pin.contains("sampling"), sampled) << pin.dump();
  }
  // The light sensor: summary, a 20-sample buffer and threshold events every 500 ms.
  EXPECT_EQ(pins[4]["capabilities"], (json{{"summary", true}, {"buffer", true}, {"events", true}}));
  EXPECT_EQ(pins[4]["sampling"]["interval_ms"], 500);
  // The simulated sensors name their quantity and unit.
  EXPECT_EQ(pins[5]["quantity"], "temperature");
  EXPECT_EQ(pins[5]["unit"], "degC");
  EXPECT_EQ(pins[6]["unit"], "%RH");
  EXPECT_EQ(pins[4]["sampling"]["buffer_size"], 20);
  // The button has a buffer and edge events; the loopback input only edges.
  EXPECT_EQ(pins[2]["capabilities"]["buffer"], true);
  EXPECT_EQ(pins[2]["capabilities"]["events"], true);
  EXPECT_EQ(pins[1]["capabilities"]["buffer"], false);
  EXPECT_EQ(pins[1]["sampling"]["buffer_size"], 0);
}

TEST_F(TcpDiscovery, EveryListedToolIsAlsoCallableAsAMethod) {
  const json listing = client().result("list_tools");
  ASSERT_TRUE(listing.is_object());
  for (const auto& tool : listing["tools"]) {
    const std::string name = tool["name"];
    // An empty params object: either a result or an invalid-params error naming a
    // required field, never "method not found".
    const json reply = client().call(name, json::object(), name);
    EXPECT_EQ(reply["id"], name);
    if (reply.contains("error")) {
      EXPECT_EQ(reply["error"]["code"], -32602) << name << ": " << reply.dump();
    } else {
      EXPECT_TRUE(reply.contains("result")) << reply.dump();
    }
  }
}

TEST_F(TcpDiscovery, ListedPinWorksWithTheToolTheClientWouldRegister) {
  // The last step of the sequence diagram: gpio_write {pin:2, value:true}.
  const json written = client().result("gpio_write", {{"pin", 2}, {"value", true}});
  EXPECT_EQ(written, (json{{"pin", 2}, {"name", "led"}, {"value", true}}));
}

}  // namespace
}  // namespace mcpud::it
