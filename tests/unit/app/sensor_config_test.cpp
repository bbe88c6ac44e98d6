// SPDX-License-Identifier: MIT
// sensor_input pins in the config: where each reads its value, the simulated
// sensor's quantity, and the key path of every mistake.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "config_parse_helpers.hpp"

namespace mcpud::config {
namespace {

const std::string kPin = "[[pins]]\nname = \"t\"\npin = 40\ntype = \"sensor_input\"\n";

TEST(SensorConfig, IioChannelOnARealBoard) {
  const auto config = parsed("board = \"raspberrypi\"\nsysfs_root = \"/tmp/fake\"\n" + kPin +
                             "iio = { device = \"bme280\", channel = \"temp\" }\n"
                             "sampling = { interval_ms = 1000, thresholds = [10.0, 30.0] }\n");
  EXPECT_EQ(config.board.sysfs_root, "/tmp/fake");
  const auto& pin = config.board.pins.at(0);
  EXPECT_EQ(pin.type, hal::PinType::SensorInput);
  EXPECT_EQ(pin.sensor.kind, pins::SensorSource::Kind::Iio);
  EXPECT_EQ(pin.sensor.device, "bme280");
  EXPECT_EQ(pin.sensor.channel, "temp");
}

TEST(SensorConfig, HwmonInputAndThermalZone) {
  const auto config = parsed("board = \"raspberrypi\"\n" + kPin +
                             "hwmon = { device = \"lm75\", input = \"temp1\" }\n"
                             "[[pins]]\nname = \"cpu\"\npin = 41\ntype = \"sensor_input\"\n"
                             "thermal = { zone = \"cpu-thermal\" }\n");
  const auto& lm75 = config.board.pins.at(0).sensor;
  EXPECT_EQ(lm75.kind, pins::SensorSource::Kind::Hwmon);
  EXPECT_EQ(lm75.device, "lm75");
  EXPECT_EQ(lm75.channel, "temp1");
  EXPECT_TRUE(has(error_of("board = \"linux\"\n" + kPin + "onewire = { id = \"28-xyz\" }\n"), "pins[0].onewire.id: "));
  const auto& cpu = config.board.pins.at(1).sensor;
  EXPECT_EQ(cpu.kind, pins::SensorSource::Kind::Thermal);
  EXPECT_EQ(cpu.device, "cpu-thermal");
}

TEST(SensorConfig, SysfsRootDefaultsToSys) { EXPECT_EQ(parsed("board = \"sim\"\n").board.sysfs_root, "/sys"); }

TEST(SensorConfig, MistakesNameTheKeyPath) {
  EXPECT_TRUE(has(error_of("board = \"linux\"\n" + kPin),
                  "pins[0]: a sensor_input on board \"linux\" needs where to read it: iio = { device, channel }, "
                  "hwmon = { device, input }, thermal = { zone } or onewire = { id }"));
  EXPECT_TRUE(has(error_of("board = \"linux\"\n" + kPin +
                           "thermal = { zone = \"cpu-thermal\" }\nhwmon = { device = \"lm75\", input = \"temp1\" }\n"),
                  "pins[0].thermal: a sensor_input reads one source; it already has hwmon"));
  EXPECT_TRUE(has(error_of("board = \"linux\"\n" + kPin + "hwmon = { device = \"lm75\", input = \"temp\" }\n"),
                  "pins[0].hwmon.input: "));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n" + kPin + "thermal = { zone = \"cpu-thermal\" }\n"),
                  "pins[0].thermal: not used by board \"sim\""));
  EXPECT_TRUE(has(error_of("board = \"linux\"\n[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\n"
                           "hwmon = { device = \"lm75\", input = \"temp1\" }\n"),
                  "pins[0].hwmon: only used by sensor_input pins, not adc_input"));
  EXPECT_TRUE(
      has(error_of("board = \"linux\"\n" + kPin + "iio = { device = \"x\", channel = \"temp\", uri = \"ip:h\" }\n"),
          "pins[0].iio.uri: a sensor_input reads the local sysfs"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n" + kPin),
                  "pins[0].sim.quantity: a simulated sensor_input needs one of: "
                  "temperature, humidity, pressure"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n" + kPin + "sim = { quantity = \"warmth\" }\n"),
                  "pins[0].sim.quantity: unknown quantity 'warmth'; known: temperature"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\n"
                           "sim = { quantity = \"temperature\" }\n"),
                  "pins[0].sim.quantity: only used by sensor_input pins"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n" + kPin + "iio = { device = \"x\", channel = \"temp\" }\n"),
                  "pins[0].iio: not used by board \"sim\""));
  EXPECT_TRUE(
      has(error_of("board = \"linux\"\n" + kPin + "initial = true\niio = { device = \"x\", channel = \"t\" }\n"),
          "pins[0].initial: not used by a sensor_input pin"));
}

TEST(SensorConfig, SimulatedSensorTakesItsQuantityAndRange) {
  const auto config = parsed("board = \"sim\"\n" + kPin +
                             "sim = { quantity = \"humidity\", waveform = \"sine\", min = 40, max = 60 }\n");
  const auto& pin = config.board.pins.at(0);
  EXPECT_EQ(pin.sim_quantity, "humidity");
  EXPECT_EQ(pin.sim_analog.min, 40);
  EXPECT_EQ(pin.sim_analog.max, 60);
}

// The commented [[pins]] blocks of a file, uncommented.
std::string commented_pins(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "# [[pins]]") inside = true;
    if (!inside || !line.starts_with("# ")) {
      inside = false;
      continue;
    }
    out += line.substr(2) + "\n";
  }
  return out;
}

TEST(SensorConfig, CommentedSensorExamplesOfThePiConfigsParse) {
  for (const char* name : {"pi4.toml", "pi5.toml"}) {
    std::ifstream in(std::string(MCPUD_SOURCE_DIR) + "/config/examples/" + name);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto extra = commented_pins(text);
    EXPECT_NE(extra.find("sensor_input"), std::string::npos) << name;
    const auto config = parsed(text + extra);
    int sensors = 0;
    for (const auto& pin : config.board.pins) sensors += pin.type == hal::PinType::SensorInput;
    EXPECT_GE(sensors, 5) << name;
  }
}

}  // namespace
}  // namespace mcpud::config
