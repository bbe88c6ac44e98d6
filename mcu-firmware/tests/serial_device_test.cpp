// SPDX-License-Identifier: MIT
// End to end over a real pty: the UnoBasic sketch in mcu-sim (host build) and, built for the
// Uno with avr-gcc, in simavr (mcu-simavr). Same tests for both.
#include <gtest/gtest.h>

#include "support/serial_device.hpp"

namespace mcpu_test {
namespace {

using nlohmann::json;

struct Backend {
  std::string name;
  std::vector<std::string> argv;  // without --link
};

void PrintTo(const Backend& b, std::ostream* os) { *os << b.name; }

std::vector<Backend> backends() {
  std::vector<Backend> list = {{"mcu_sim", {MCU_SIM_BINARY, "--adc", "0=1650"}}};
#if MCU_HAVE_AVR
  list.push_back({"simavr_uno", {MCU_SIMAVR_BINARY, MCU_AVR_ELF, "--adc", "0=1650"}});
#endif
  return list;
}

json rpc(int id, const std::string& method, const json& params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

class SerialDeviceTest : public ::testing::TestWithParam<Backend> {
 protected:
  SerialDevice device{GetParam().argv};
};

TEST_P(SerialDeviceTest, GetInfo_DescribesTheSketch) {
  const json r = device.client.call(rpc(1, "get_info"));
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_EQ(r["result"]["device"], "uno-demo");
  EXPECT_EQ(r["result"]["version"], "1.0.0");
  EXPECT_EQ(r["result"]["platform"], "arduino");
  EXPECT_EQ(r["result"]["pin_count"], 4);
}

TEST_P(SerialDeviceTest, ListTools_HasBuiltinsCustomToolsAndPins) {
  const json r = device.client.call(rpc(2, "list_tools"), 20);
  ASSERT_TRUE(r.contains("result")) << r.dump();
  std::vector<std::string> names;
  for (const auto& t : r["result"]["tools"]) names.push_back(t["name"]);
  EXPECT_EQ(names,
            (std::vector<std::string>{"gpio_write", "gpio_read", "pwm_write", "adc_read", "get_info", "get_pin_summary",
                                      "get_pin_buffer", "get_pin_events", "blink", "uptime", "emergency_stop"}));
  const json blink = r["result"]["tools"][8];
  EXPECT_EQ(blink["inputSchema"]["properties"]["times"]["maximum"], 20);
  EXPECT_EQ(r["result"]["tools"][9]["polling"]["interval_ms"], 10000);
  ASSERT_EQ(r["result"]["pins"].size(), 4u);
  EXPECT_EQ(r["result"]["pins"][0],
            (json{{"pin", 13}, {"name", "led"}, {"type", "digital_output"}, {"description", "Onboard LED"}}));
  EXPECT_EQ(r["result"]["pins"][1]["sampling"], (json{{"interval_ms", 100}, {"buffer_size", 16}}));
}

TEST_P(SerialDeviceTest, GpioWrite_Pin13_DrivesTheOutput) {
  json r = device.client.call(rpc(3, "gpio_write", {{"pin", 13}, {"value", true}}));
  EXPECT_EQ(r["result"], (json{{"pin", 13}, {"name", "led"}, {"value", true}}));
  EXPECT_TRUE(device.process.waitFor("pin 13 1", 10));
  r = device.client.call(rpc(4, "gpio_write", {{"pin", 13}, {"value", false}}));
  EXPECT_EQ(r["result"]["value"], false);
  EXPECT_TRUE(device.process.waitFor("pin 13 0", 10));
  EXPECT_EQ(device.client.call(rpc(5, "gpio_read", {{"pin", 13}}))["result"]["value"], false);
}

TEST_P(SerialDeviceTest, AdcRead_ReturnsTheInjectedVoltage) {
  json r = device.client.call(rpc(6, "adc_read", {{"pin", 14}}));
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_NEAR(r["result"]["mv"].get<double>(), 1650, 10);  // one ADC step is 4.9 mV
  device.process.send("adc 0 4000");
  ASSERT_TRUE(device.process.waitFor("ok adc", 10));
  r = device.client.call(rpc(7, "adc_read", {{"pin", 14}}));
  EXPECT_NEAR(r["result"]["mv"].get<double>(), 4000, 10);
  EXPECT_NEAR(r["result"]["value"].get<double>(), 4000.0 * 1023 / 5000, 2);
}

TEST_P(SerialDeviceTest, RequestsSentByteAfterByte_AreAllAnswered) {
  for (int id = 10; id < 40; ++id) {
    const bool on = id % 2 == 0;
    const json r = device.client.call(rpc(id, "gpio_write", {{"pin", 13}, {"value", on}}), 10, true);
    ASSERT_EQ(r["result"], (json{{"pin", 13}, {"name", "led"}, {"value", on}})) << "id " << id << ": " << r.dump();
  }
}

TEST(McuSim, PipelinedRequests_AreAnsweredInOrder) {
  SerialDevice device({MCU_SIM_BINARY});
  std::string burst;
  for (int id = 100; id < 120; ++id) burst += rpc(id, "gpio_read", {{"pin", 13}}).dump() + "\n";
  device.client.write(burst, true);
  for (int id = 100; id < 120; ++id) {
    const json r = json::parse(device.client.readLine(20), nullptr, false);
    ASSERT_FALSE(r.is_discarded()) << "no reply to id " << id;
    EXPECT_EQ(r["id"], id);
    EXPECT_EQ(r["result"]["name"], "led");
  }
}

// A burst larger than the UART can take while replies are sent overflows the receive
// ring of a real ATmega (64 bytes): lines arrive damaged. The device must answer those
// with errors and keep serving; hosts keep one request in flight to an AVR.
TEST_P(SerialDeviceTest, OverflowingBurst_LeavesTheDeviceServing) {
  std::string burst;
  for (int id = 200; id < 230; ++id) burst += rpc(id, "get_info").dump() + "\n";
  device.client.write(burst, true);
  // As a host would: end any damaged partial line, then resend until answered.
  json after;
  for (int id = 300; id < 320 && !after.contains("result"); ++id) {
    device.client.write("\n");
    after = device.client.call(rpc(id, "gpio_read", {{"pin", 13}}), 3);
  }
  EXPECT_EQ(after["result"]["name"], "led") << after.dump();
}

TEST_P(SerialDeviceTest, Errors_AreReportedAndTheDeviceKeepsGoing) {
  device.client.write("this is not json\n");
  const json parse = json::parse(device.client.readLine(10), nullptr, false);
  EXPECT_EQ(parse["error"]["code"], -32700);
  EXPECT_TRUE(parse["id"].is_null());
  EXPECT_EQ(device.client.call(rpc(8, "gpio_write", {{"pin", 13}, {"value", 1}}))["error"]["message"],
            "Bad params: params.value: expected boolean, got integer");
  EXPECT_EQ(device.client.call(rpc(9, "blink", {{"times", 0}}))["error"]["code"], -32602);
  EXPECT_EQ(device.client.call(rpc(10, "get_info"))["result"]["device"], "uno-demo");
}

TEST_P(SerialDeviceTest, Muted_DropsRequestsUntilUnmuted) {
  device.process.send("mute");
  ASSERT_TRUE(device.process.waitFor("ok mute", 10));
  const std::string lost = rpc(50, "get_info").dump() + "\n";
  device.client.write(lost);
  bool dropped = false;
  for (int i = 0; i < 100 && !dropped; ++i) {
    device.process.send("dropped");
    dropped = device.process.waitFor("dropped " + std::to_string(lost.size()), 1);
  }
  ASSERT_TRUE(dropped);
  device.process.send("unmute");
  ASSERT_TRUE(device.process.waitFor("ok unmute", 10));
  device.client.write(rpc(51, "get_info").dump() + "\n");
  const json r = json::parse(device.client.readLine(10), nullptr, false);
  EXPECT_EQ(r["id"], 51);  // the first reply: the muted request was never answered
}

INSTANTIATE_TEST_SUITE_P(Backends, SerialDeviceTest, ::testing::ValuesIn(backends()),
                         [](const auto& info) { return info.param.name; });

TEST(McuSim, NoSchemas_LeavesInputSchemaOut) {
  SerialDevice device({MCU_SIM_BINARY, "--no-schemas"});
  const json r = device.client.call(rpc(1, "list_tools"));
  ASSERT_TRUE(r.contains("result"));
  for (const auto& t : r["result"]["tools"]) EXPECT_FALSE(t.contains("inputSchema")) << t["name"];
}

TEST(McuSim, CrLfAndDevice_EndLinesLikeTheReferenceUnderAnotherName) {
  SerialDevice device({MCU_SIM_BINARY, "--crlf", "--device", "uno-2"});
  device.client.write(rpc(1, "get_info").dump() + "\n");
  const std::string line = device.client.readLine(10, true);
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\r');
  EXPECT_EQ(json::parse(line)["result"]["device"], "uno-2");
}

TEST(McuSim, Banner_IsPrintedBeforeTheFirstReply) {
  SerialDevice device({MCU_SIM_BINARY, "--banner", "booting uno-demo"});
  EXPECT_EQ(device.client.readLine(10), "booting uno-demo");
  EXPECT_EQ(device.client.call(rpc(1, "get_info"))["result"]["device"], "uno-demo");
}

#if MCU_HAVE_AVR
TEST(SimavrUno, NoSchemasBuild_LeavesInputSchemaOut) {
  SerialDevice device({MCU_SIMAVR_BINARY, MCU_AVR_ELF_NOSCHEMAS});
  const json r = device.client.call(rpc(1, "list_tools"), 20);
  ASSERT_TRUE(r.contains("result"));
  EXPECT_EQ(r["result"]["tools"].size(), 11u);
  for (const auto& t : r["result"]["tools"]) EXPECT_FALSE(t.contains("inputSchema")) << t["name"];
  EXPECT_EQ(device.client.call(rpc(2, "get_info"))["result"]["schemas"], false);
}

TEST(SimavrUno, GetInfo_ReportsFreeRamWithRoomForTheStack) {
  SerialDevice device({MCU_SIMAVR_BINARY, MCU_AVR_ELF});
  const json r = device.client.call(rpc(1, "get_info"));
  ASSERT_TRUE(r["result"].contains("free_ram")) << r.dump();
  EXPECT_GE(r["result"]["free_ram"].get<int>(), 512);  // between the stack in a call and static data
  EXPECT_EQ(r["result"]["memory_profile"], "low");
  EXPECT_EQ(r["result"]["line_max"], 200);
}

TEST(SimavrUno, ButtonEdges_AreQueuedAsEvents) {
  SerialDevice device({MCU_SIMAVR_BINARY, MCU_AVR_ELF});
  // An answer means loop() has run, so the button has its first sample (low).
  ASSERT_EQ(device.client.call(rpc(100, "get_info"))["result"]["device"], "uno-demo");
  device.process.send("din 2 1");
  ASSERT_TRUE(device.process.waitFor("ok din", 10));
  json r;
  for (int i = 0; i < 200; ++i) {  // sampling every 20 ms: poll until the edge is queued
    r = device.client.call(rpc(i + 1, "get_pin_events", {{"pin", "button"}}));
    if (r["result"]["count"] == 1) break;
  }
  ASSERT_EQ(r["result"]["count"], 1) << r.dump();
  EXPECT_EQ(r["result"]["events"][0]["type"], "rising");
}
#endif

}  // namespace
}  // namespace mcpu_test
