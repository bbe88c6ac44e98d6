// SPDX-License-Identifier: MIT
// The pin methods of the firmware (gpio, pwm, adc) and their errors, on the host build.
#include "device_fixture.hpp"

namespace mcpu_test {
namespace {

TEST_F(DeviceTest, GpioWrite_DrivesThePinAndEchoesIt) {
  EXPECT_EQ(request("gpio_write", {{"pin", 13}, {"value", true}})["result"],
            (json{{"pin", 13}, {"name", "led"}, {"value", true}}));
  EXPECT_EQ(mcpu_host::level(13), 1);
  request("gpio_write", {{"pin", 13}, {"value", false}});
  EXPECT_EQ(mcpu_host::level(13), 0);
  EXPECT_EQ(mcpu_host::mode(13), OUTPUT);
}

TEST_F(DeviceTest, GpioWrite_RejectsIntegerValue) {
  const json reply = request("gpio_write", {{"pin", 13}, {"value", 1}});
  EXPECT_EQ(reply["error"]["code"], -32602);
  EXPECT_EQ(reply["error"]["message"], "Bad params: params.value: expected boolean, got integer");
  EXPECT_EQ(mcpu_host::level(13), 0);
}

TEST_F(DeviceTest, GpioWrite_MissingParamIsNamed) {
  EXPECT_EQ(request("gpio_write", {{"pin", 13}})["error"]["message"], "Bad params: params.value: required");
  EXPECT_EQ(request("gpio_write", {{"value", true}})["error"]["message"], "Bad params: params.pin: required");
  EXPECT_EQ(request("gpio_write", {{"pin", "13"}, {"value", true}})["error"]["message"],
            "Bad params: params.pin: expected integer, got string");
  EXPECT_EQ(request("gpio_write", {{"pin", 1.5}, {"value", true}})["error"]["message"],
            "Bad params: params.pin: expected integer, got number");
}

TEST_F(DeviceTest, UnknownPin_IsPinNotFound) {
  const json reply = request("gpio_write", {{"pin", 7}, {"value", true}});
  EXPECT_EQ(reply["error"]["code"], -32602);
  EXPECT_EQ(reply["error"]["message"], "Pin not found: 7");
  EXPECT_EQ(reply["error"]["data"]["code"], "PIN_NOT_FOUND");
  EXPECT_EQ(request("get_pin_summary", {{"pin", "nope"}})["error"]["message"], "Pin not found: nope");
}

TEST_F(DeviceTest, WrongPinType_NamesThePinAndItsType) {
  const json reply = request("gpio_write", {{"pin", A0}, {"value", true}});
  EXPECT_EQ(reply["error"]["message"], "Wrong pin type: sensor is adc_input");
  EXPECT_EQ(reply["error"]["data"]["code"], "WRONG_PIN_TYPE");
  EXPECT_EQ(request("adc_read", {{"pin", 13}})["error"]["data"]["code"], "WRONG_PIN_TYPE");
  EXPECT_EQ(request("pwm_write", {{"pin", 13}, {"duty", 3}})["error"]["data"]["code"], "WRONG_PIN_TYPE");
  EXPECT_EQ(request("gpio_read", {{"pin", 9}})["error"]["data"]["code"], "WRONG_PIN_TYPE");
}

TEST_F(DeviceTest, GpioRead_ReadsInputsAndOutputs) {
  mcpu_host::setDigital(2, true);
  EXPECT_EQ(request("gpio_read", {{"pin", 2}})["result"], (json{{"pin", 2}, {"name", "button"}, {"value", true}}));
  EXPECT_EQ(request("gpio_read", {{"pin", 13}})["result"]["value"], false);
}

TEST_F(DeviceTest, PwmWrite_SetsDutyWithinRange) {
  EXPECT_EQ(request("pwm_write", {{"pin", 9}, {"duty", 128}})["result"],
            (json{{"pin", 9}, {"name", "dimmer"}, {"duty", 128}}));
  EXPECT_EQ(mcpu_host::pwm(9), 128);
  EXPECT_EQ(request("pwm_write", {{"pin", 9}, {"duty", 256}})["error"]["message"],
            "Bad params: params.duty: must be between 0 and 255, got 256");
  EXPECT_EQ(request("pwm_write", {{"pin", 9}, {"duty", -1}})["error"]["code"], -32602);
  EXPECT_EQ(mcpu_host::pwm(9), 128);
}

TEST_F(DeviceTest, AdcRead_ReportsRawMillivoltsAndVolts) {
  mcpu_host::setAnalog(0, 512);
  const json result = request("adc_read", {{"pin", A0}})["result"];
  const long mv = (512L * MCPU_ADC_REF_MV + MCPU_ADC_MAX / 2) / MCPU_ADC_MAX;
  EXPECT_EQ(result["value"], 512);
  EXPECT_EQ(result["mv"], mv);
  EXPECT_DOUBLE_EQ(result["volts"].get<double>(), mv / 1000.0);
  EXPECT_EQ(result["name"], "sensor");
}

TEST_F(DeviceTest, CustomTool_GetsCheckedArguments) {
  EXPECT_EQ(request("echo", {{"text", "hi \"there\"\n"}, {"count", 3}})["result"],
            (json{{"text", "hi \"there\"\n"}, {"count", 3}, {"loud", false}}));
  EXPECT_EQ(request("echo", json::object())["error"]["message"], "Bad params: params.text: required");
  EXPECT_EQ(request("echo", {{"text", "x"}, {"count", 9}})["error"]["message"],
            "Bad params: params.count: must be between 1 and 5, got 9");
  EXPECT_EQ(request("echo", {{"text", "x"}, {"loud", "yes"}})["error"]["message"],
            "Bad params: params.loud: expected boolean, got string");
  EXPECT_EQ(request("echo", {{"text", "\\u0041\u00e9"}})["result"]["text"], "\\u0041\u00e9");
  EXPECT_EQ(call(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"\u0041\t"}})")["result"]["text"], "A\t");
}

TEST_F(DeviceTest, CustomTool_CanReportItsOwnError) {
  const json too_long = request("echo", {{"text", std::string(40, 'y')}});
  EXPECT_EQ(too_long["error"],
            (json{{"code", -32602}, {"message", "text too long"}, {"data", {{"code", "TOO_LONG"}}}}));
  const json failed = request("fail", json::object(), 12);
  EXPECT_EQ(failed["id"], 12);
  EXPECT_EQ(failed["error"]["message"], "sensor \"x\" offline");
  EXPECT_EQ(failed["error"]["data"]["code"], "READ_ERROR");
}

TEST_F(DeviceTest, Registration_RefusesDuplicatesBuiltinNamesAndFullTables) {
  EXPECT_FALSE(device_.addPin(13, F("again"), MCP_DIGITAL_OUTPUT, F("")));
  EXPECT_FALSE(device_.addPin(30, F("out"), MCP_DIGITAL_OUTPUT, F(""), McpSummaryOnly(10)));  // outputs are not sampled
  EXPECT_FALSE(device_.addTool(F("gpio_write"), F("mine"), failTool));
  EXPECT_FALSE(device_.addTool(F("echo"), F("twice"), failTool));
  EXPECT_TRUE(device_.addTool(F("extra"), F("x"), failTool));
  EXPECT_FALSE(device_.addTool(F("extra"), F("x"), failTool));
  EXPECT_FALSE(device_.addPin(31, F("led"), MCP_DIGITAL_INPUT, F("same name as pin 13")));
  static std::vector<std::string> names;
  for (int pin = 20; pin < 40; ++pin) names.push_back("p" + std::to_string(pin));
  for (int pin = 20; pin < 40; ++pin)
    device_.addPin(static_cast<uint8_t>(pin), names[pin - 20].c_str(), MCP_DIGITAL_INPUT, F(""));
  EXPECT_EQ(device_.pinCount(), MCPU_MAX_PINS);
}

}  // namespace
}  // namespace mcpu_test
