// SPDX-License-Identifier: MIT
// sensor_input pins in the config: where each reads its value, the simulated
// sensor's quantity, and the key path of every mistake.
#include <gtest/gtest.h>

#include <string>

#include "config.hpp"

namespace mcpud::config {
namespace {

std::string error_of(std::string_view toml) {
  const auto config = parse(toml, "sensors.toml");
  return config ? "" : config.error();
}

Config parsed(std::string_view toml) {
  auto config = parse(toml, "sensors.toml");
  EXPECT_TRUE(config) << (config ? "" : config.error());
  return config ? std::move(*config) : Config{};
}

::testing::AssertionResult has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not in: " << text;
}

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

TEST(SensorConfig, SysfsRootDefaultsToSys) { EXPECT_EQ(parsed("board = \"sim\"\n").board.sysfs_root, "/sys"); }

TEST(SensorConfig, MistakesNameTheKeyPath) {
  EXPECT_TRUE(has(error_of("board = \"linux\"\n" + kPin),
                  "pins[0]: a sensor_input on board \"linux\" needs where to read it: iio = { device, channel }"));
  EXPECT_TRUE(has(error_of("board = \"linux\"\n" + kPin + "iio = { device = \"x\", channel = \"temp\", uri = \"ip:h\" }\n"),
                  "pins[0].iio.uri: a sensor_input reads the local sysfs"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n" + kPin), "pins[0].sim.quantity: a simulated sensor_input needs one of: "
                                                        "temperature, humidity, pressure"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n" + kPin + "sim = { quantity = \"warmth\" }\n"),
                  "pins[0].sim.quantity: unknown quantity 'warmth'; known: temperature"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n[[pins]]\nname = \"a\"\npin = 1\ntype = \"adc_input\"\n"
                           "sim = { quantity = \"temperature\" }\n"),
                  "pins[0].sim.quantity: only used by sensor_input pins"));
  EXPECT_TRUE(has(error_of("board = \"sim\"\n" + kPin + "iio = { device = \"x\", channel = \"temp\" }\n"),
                  "pins[0].iio: not used by board \"sim\""));
  EXPECT_TRUE(has(error_of("board = \"linux\"\n" + kPin + "initial = true\niio = { device = \"x\", channel = \"t\" }\n"),
                  "pins[0].initial: not used by a sensor_input pin"));
}

TEST(SensorConfig, SimulatedSensorTakesItsQuantityAndRange) {
  const auto config =
      parsed("board = \"sim\"\n" + kPin + "sim = { quantity = \"humidity\", waveform = \"sine\", min = 40, max = 60 }\n");
  const auto& pin = config.board.pins.at(0);
  EXPECT_EQ(pin.sim_quantity, "humidity");
  EXPECT_EQ(pin.sim_analog.min, 40);
  EXPECT_EQ(pin.sim_analog.max, 60);
}

}  // namespace
}  // namespace mcpud::config
