// SPDX-License-Identifier: MIT
// mcpud on a real board kind where the hardware is missing: start-up fails with
// the key's pin and what exists instead, never a crash. (The build machine has no
// GPIO chips and no IIO devices; tests/kernel proves the working paths.)
#include <fstream>
#include <iterator>

#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

std::string start_failure(const std::string& toml) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("hw.toml", toml);
  EXPECT_TRUE(daemon.start({"--config", config, "--listen", "127.0.0.1:0"}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  return daemon.log();
}

TEST(HardwareStart, MissingHeaderChipIsReportedWithTheLabelsTried) {
  const auto log = start_failure(R"(
board = "raspberrypi"
[[pins]]
name = "led"
pin = 17
type = "digital_output"
)");
  EXPECT_TRUE(contains(log,
                       "pin 17 (led), GPIO pinctrl-bcm2835|pinctrl-bcm2711|pinctrl-rp1:GPIO17: no GPIO chip labelled "
                       "pinctrl-bcm2835 or pinctrl-bcm2711 or pinctrl-rp1"));
}

TEST(HardwareStart, MissingIioDeviceIsNamed) {
  const auto log = start_failure(R"(
board = "linux"
[[pins]]
name = "light"
pin = 100
type = "adc_input"
iio = { device = "ads1015", channel = "voltage0" }
)");
  EXPECT_TRUE(contains(log, "pin 100 (light), IIO ads1015/voltage0: "));
}

// Libraries only some configurations need are loaded by the first part that
// needs them, not mapped into every daemon: libiio (and the avahi, libdbus,
// libusb, libxml2 and libicu it pulls in) by the first IIO ADC pin (the
// MissingIioDeviceIsNamed error above comes from it once loaded), libmosquitto
// by an MQTT uplink, OpenSSL with the TLS module by a TLS uplink
// (ServicesTls.VerifiesTheServerAndServesCallsOverTls sees them arrive).
TEST(HardwareStart, OnDemandLibrariesAreNotMappedUnconfigured) {
  DaemonProcess daemon;
  ASSERT_GT(daemon.start_tcp({}), 0);
  std::ifstream maps("/proc/" + std::to_string(daemon.pid()) + "/maps");
  ASSERT_TRUE(maps.is_open());
  const std::string mapped{std::istreambuf_iterator<char>(maps), {}};
  for (const char* library : {"libiio", "libmosquitto", "libssl", "libcrypto", "mcpud-tls"}) {
    EXPECT_FALSE(contains(mapped, library)) << library << " is mapped:\n" << mapped;
  }
  EXPECT_TRUE(contains(mapped, "libc.so")) << "the maps were not read";
}

TEST(HardwareStart, CheckConfigLooksLinesUpWithoutRequestingThem) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("hw.toml",
                                        "board = \"linux\"\n[[pins]]\nname = \"b\"\npin = 1\ntype = \"digital_input\"\n"
                                        "chip = \"gpiochip0\"\nline = \"GPIO1\"\n");
  ASSERT_TRUE(daemon.start({"--check-config", config}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  EXPECT_TRUE(
      contains(daemon.log(),
               "configuration invalid: pin 1 (b), GPIO gpiochip0:GPIO1: no GPIO chip named or labelled 'gpiochip0'"));
}

}  // namespace
}  // namespace mcpud::it
