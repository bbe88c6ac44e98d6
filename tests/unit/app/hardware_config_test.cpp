// SPDX-License-Identifier: MIT
// The hardware keys of the config: board conventions (raspberrypi, linux) and
// the cross-checks that name the key path of a mistake.
#include <gtest/gtest.h>

#include <string>

#include "config_parse_helpers.hpp"

namespace mcpud::config {
namespace {

TEST(HardwareConfig, RaspberryPiPinNumberIsTheBcmLineOnTheHeaderChip) {
  const auto config = parsed(R"(
board = "raspberrypi"
[[pins]]
name = "led"
pin = 17
type = "digital_output"
safe_value = false
active_low = true
drive = "open-drain"
)");
  ASSERT_EQ(config.board.pins.size(), 1u);
  const auto& pin = config.board.pins[0];
  EXPECT_EQ(pin.line.line_name, "GPIO17");
  EXPECT_TRUE(pin.line.chip.empty());
  EXPECT_EQ(pin.line.chip_labels, (std::vector<std::string>{"pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"}));
  EXPECT_TRUE(pin.gpio_output.active_low);
  EXPECT_EQ(pin.gpio_output.drive, hal::Drive::OpenDrain);
}

TEST(HardwareConfig, RaspberryPiPinOffTheHeaderNeedsAnExplicitLine) {
  EXPECT_TRUE(has(error_of("board = \"raspberrypi\"\n[[pins]]\nname = \"x\"\npin = 40\ntype = \"digital_output\"\n"),
                  "pins[0].pin: 40 is not a BCM GPIO on the Raspberry Pi header (0-27)"));
  const auto config = parsed(
      "board = \"raspberrypi\"\n[[pins]]\nname = \"x\"\npin = 40\ntype = \"digital_output\"\nline = \"GPIO40\"\n");
  EXPECT_EQ(config.board.pins[0].line.line_name, "GPIO40");
}

TEST(HardwareConfig, InputEventsFeedAnEdgeOnlySampler) {
  const auto config = parsed(R"(
board = "linux"
[[pins]]
name = "button"
pin = 27
type = "digital_input"
chip = "gpio-sim.0-node0"
line = 3
bias = "pull-up"
active_low = true
events = "both"
debounce_ms = 10
)");
  const auto& pin = config.board.pins[0];
  EXPECT_EQ(pin.line.chip, "gpio-sim.0-node0");
  EXPECT_EQ(pin.line.offset, 3u);
  EXPECT_EQ(pin.gpio_input.bias, hal::Bias::PullUp);
  EXPECT_EQ(pin.gpio_input.edges, hal::Edges::Both);
  EXPECT_EQ(pin.gpio_input.debounce_us, 10000u);
  ASSERT_TRUE(pin.sampling);
  EXPECT_EQ(pin.sampling->interval_ms, 0u) << "no timer";
  EXPECT_EQ(pin.sampling->edges, EdgeMode::Both);
  EXPECT_TRUE(pin.sampling->hardware_edges);
}

TEST(HardwareConfig, EventsAndSampledEdgesAreExclusive) {
  EXPECT_TRUE(has(error_of(R"(
board = "linux"
[[pins]]
name = "b"
pin = 1
type = "digital_input"
chip = "c"
line = 1
events = "rising"
sampling = { interval_ms = 10, edges = "both" }
)"),
                  "pins[0].sampling.edges: the line reports its edges itself"));
}

TEST(HardwareConfig, LinuxBoardNeedsChipAndLine) {
  EXPECT_TRUE(has(error_of("board = \"linux\"\n[[pins]]\nname = \"x\"\npin = 1\ntype = \"digital_output\"\n"),
                  "pins[0].chip: board \"linux\" needs the GPIO chip"));
  EXPECT_TRUE(has(
      error_of("board = \"linux\"\n[[pins]]\nname = \"x\"\npin = 1\ntype = \"digital_output\"\nchip = \"gpiochip0\"\n"),
      "pins[0].line: board \"linux\" needs the line's name or offset on chip 'gpiochip0'"));
}

TEST(HardwareConfig, KeysMustFitThePinType) {
  EXPECT_TRUE(has(error_of("board = \"linux\"\n[[pins]]\nname = \"x\"\npin = 1\ntype = \"digital_output\"\nchip = "
                           "\"c\"\nline = 1\nbias = \"pull-up\"\n"),
                  "pins[0].bias: only used by digital_input pins, not digital_output"));
  EXPECT_TRUE(has(error_of("board = \"linux\"\n[[pins]]\nname = \"x\"\npin = 1\ntype = \"pwm_output\"\niio = { device "
                           "= \"d\", channel = \"voltage0\" }\n"),
                  "pins[0].iio: only used by adc_input or sensor_input pins, not pwm_output"));
}

TEST(HardwareConfig, KeysMustFitTheBoard) {
  EXPECT_TRUE(has(error_of("[[pins]]\nname = \"x\"\npin = 1\ntype = \"digital_output\"\nchip = \"gpiochip0\"\n"),
                  "pins[0].chip: not used by board \"sim\""));
  EXPECT_TRUE(has(
      error_of(
          "board = \"linux\"\n[[pins]]\nname = \"x\"\npin = 1\ntype = \"adc_input\"\nsim = { waveform = \"sine\" }\n"),
      "pins[0].sim: only used by board \"sim\", not \"linux\""));
  EXPECT_TRUE(has(error_of("board = \"raspberry\"\n"), "board"));
}

TEST(HardwareConfig, AdcAndPwmNeedTheirDevice) {
  EXPECT_TRUE(has(error_of("board = \"linux\"\n[[pins]]\nname = \"a\"\npin = 100\ntype = \"adc_input\"\n"),
                  "pins[0].iio: an adc_input on board \"linux\" needs iio = { device, channel }"));
  EXPECT_TRUE(has(error_of("board = \"raspberrypi\"\n[[pins]]\nname = \"f\"\npin = 18\ntype = \"pwm_output\"\n"),
                  "pins[0].pwm.chip: a pwm_output on board \"raspberrypi\" needs the PWM chip"));
  EXPECT_TRUE(
      has(error_of(
              "board = \"linux\"\n[[pins]]\nname = \"a\"\npin = 100\ntype = \"adc_input\"\niio = { device = \"d\" }\n"),
          "pins[0].iio"));
}

TEST(HardwareConfig, AdcAndPwmKeysAreRead) {
  const auto config = parsed(R"(
board = "raspberrypi"
pwm_sysfs_root = "/tmp/fake"
[[pins]]
name = "light"
pin = 100
type = "adc_input"
iio = { device = "ads1015", channel = "voltage0", uri = "ip:10.0.0.2" }
sampling = { interval_ms = 100, buffer_size = 50, thresholds = [200.0, 900.0] }
[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
safe_duty = 0
pwm = { chip = "pwmchip0", channel = 1, frequency_hz = 25000, polarity = "inversed" }
)");
  EXPECT_EQ(config.board.pwm_sysfs_root, "/tmp/fake");
  EXPECT_EQ(config.board.pins[0].iio.device, "ads1015");
  EXPECT_EQ(config.board.pins[0].iio.channel, "voltage0");
  EXPECT_EQ(config.board.pins[0].iio.uri, "ip:10.0.0.2");
  EXPECT_EQ(config.board.pins[1].pwm_chip, "pwmchip0");
  EXPECT_EQ(config.board.pins[1].pwm_channel, 1u);
  EXPECT_EQ(config.board.pins[1].frequency_hz, 25000u);
  EXPECT_TRUE(config.board.pins[1].pwm_inverted);
}

TEST(HardwareConfig, PiExamplesParse) {
  for (const char* name : {"pi4.toml", "pi5.toml"}) {
    const auto config = load_file(std::string(MCPUD_SOURCE_DIR) + "/config/examples/" + name);
    ASSERT_TRUE(config) << config.error();
    EXPECT_EQ(config->board.kind, pins::BoardKind::RaspberryPi);
    EXPECT_GE(config->board.pins.size(), 5u) << name;
  }
}

}  // namespace
}  // namespace mcpud::config
