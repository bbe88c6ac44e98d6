// SPDX-License-Identifier: MIT
// get_info and list_tools of the firmware: the shape MCP/U hosts rely on.
#include "device_fixture.hpp"

namespace mcpu_test {
namespace {

json toolNamed(const json& tools, const std::string& name) {
  for (const auto& t : tools) {
    if (t["name"] == name) return t;
  }
  return json();
}

TEST_F(DeviceTest, GetInfo_HasTheReferenceFields) {
  const json r = request("get_info")["result"];
  EXPECT_EQ(r["device"], "test-dev");
  EXPECT_EQ(r["version"], "9.9.9");
  EXPECT_EQ(r["platform"], "arduino");
  EXPECT_EQ(r["pin_count"], 5);
  EXPECT_EQ(r["memory_profile"], MCPU_MEMORY_PROFILE);
  EXPECT_EQ(r["schemas"], true);
  EXPECT_EQ(r["line_max"], MCPU_LINE_MAX);
}

TEST_F(DeviceTest, ListTools_ListsBuiltinsThenCustomTools) {
  const json r = request("list_tools")["result"];
  EXPECT_EQ(r["device"], "test-dev");
  EXPECT_EQ(r["version"], "9.9.9");
  std::vector<std::string> names;
  for (const auto& t : r["tools"]) names.push_back(t["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"gpio_write", "gpio_read", "pwm_write", "adc_read", "get_info",
                                             "get_pin_summary", "get_pin_buffer", "get_pin_events", "echo", "fail"}));
  const json gpio = toolNamed(r["tools"], "gpio_write");
  EXPECT_EQ(gpio["inputSchema"]["type"], "object");
  EXPECT_EQ(gpio["inputSchema"]["properties"]["pin"]["type"], "integer");
  EXPECT_EQ(gpio["inputSchema"]["properties"]["value"]["type"], "boolean");
  EXPECT_EQ(gpio["inputSchema"]["required"], (json{"pin", "value"}));
  EXPECT_EQ(toolNamed(r["tools"], "get_pin_buffer")["inputSchema"]["properties"]["pin"]["type"], "integer");
}

TEST_F(DeviceTest, ListTools_EveryPropertyHasOneType) {
  // Hosts that read one type per property skip a property whose type is a list.
  const json tools = request("list_tools")["result"]["tools"];  // kept: the loop must not outlive it
  for (const auto& tool : tools) {
    for (const auto& [name, property] : tool["inputSchema"]["properties"].items()) {
      EXPECT_TRUE(property["type"].is_string()) << tool["name"] << "." << name << ": " << property.dump();
    }
  }
}

TEST_F(DeviceTest, ListTools_CustomToolsCarryTheirSchemaAndPolling) {
  const json tools = request("list_tools")["result"]["tools"];
  const json echo = toolNamed(tools, "echo");
  EXPECT_EQ(echo["description"], "Echo text");
  EXPECT_EQ(echo["inputSchema"]["properties"]["count"],
            (json{{"type", "integer"}, {"description", "Repetitions"}, {"minimum", 1}, {"maximum", 5}}));
  EXPECT_EQ(echo["inputSchema"]["required"], (json{"text"}));
  EXPECT_FALSE(echo.contains("polling"));
  const json fail = toolNamed(tools, "fail");
  EXPECT_EQ(fail["polling"], (json{{"enabled", true}, {"interval_ms", 2000}}));
  EXPECT_EQ(fail["inputSchema"],
            (json{{"type", "object"}, {"properties", json::object()}, {"required", json::array()}}));
}

TEST_F(DeviceTest, ListTools_PinsCarryCapabilitiesAndSampling) {
  const json pins = request("list_tools")["result"]["pins"];
  ASSERT_EQ(pins.size(), 5u);
  EXPECT_EQ(pins[0], (json{{"pin", 13}, {"name", "led"}, {"type", "digital_output"}, {"description", "Onboard LED"}}));
  EXPECT_EQ(pins[1]["description"], "Light \"sensor\"");
  EXPECT_EQ(pins[1]["capabilities"], (json{{"summary", true}, {"buffer", true}, {"events", true}}));
  EXPECT_EQ(pins[1]["sampling"], (json{{"interval_ms", 100}, {"buffer_size", 4}}));
  EXPECT_EQ(pins[3]["capabilities"], (json{{"summary", false}, {"buffer", false}, {"events", true}}));
  EXPECT_FALSE(pins[4].contains("capabilities"));
}

TEST_F(DeviceTest, ListTools_WithoutSchemasLeavesInputSchemaOut) {
  device_.setSchemas(false);
  const json r = request("list_tools")["result"];
  for (const auto& t : r["tools"]) EXPECT_FALSE(t.contains("inputSchema")) << t["name"];
  EXPECT_EQ(request("get_info")["result"]["schemas"], false);
  // Arguments are still checked.
  EXPECT_EQ(request("gpio_write", {{"pin", 13}, {"value", 1}})["error"]["code"], -32602);
}

TEST(McpDeviceLargeBuffer, BuffersLargerThan255Samples_AreKept) {
  MemoryStream stream;
  McpDevice device("big", "1");
  ASSERT_TRUE(device.addPin(A0, F("light"), MCP_ADC_INPUT, F("Light"), McpBuffered(300, 10)));
  device.begin(stream);
  const std::string line = R"({"jsonrpc":"2.0","id":1,"method":"list_tools"})";
  device.handleLine(line.data(), line.size());
  EXPECT_EQ(json::parse(stream.output())["result"]["pins"][0]["sampling"]["buffer_size"], 300);
}

TEST(McpDeviceNoSampling, ListTools_LeavesSamplingToolsOut) {
  MemoryStream stream;
  McpDevice device("bare", "1");
  device.addPin(13, F("led"), MCP_DIGITAL_OUTPUT, F("LED"));
  device.begin(stream);
  device.handleLine(R"({"jsonrpc":"2.0","id":1,"method":"list_tools"})", 46);
  const json r = json::parse(stream.output())["result"];
  EXPECT_EQ(r["tools"].size(), 5u);
  EXPECT_EQ(r["tools"].back()["name"], "get_info");
}

}  // namespace
}  // namespace mcpu_test
