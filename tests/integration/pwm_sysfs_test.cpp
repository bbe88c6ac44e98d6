// SPDX-License-Identifier: MIT
// mcpud on board "linux" driving a PWM channel through a fake sysfs tree
// (pwm_sysfs_root): pwm_write sets duty_cycle, SIGTERM drives the safe duty
// and unexports; a wrong chip is reported at start with the chips that exist.
#include <signal.h>

#include "../fixtures/fake_pwm_sysfs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using mcpud::testing::FakePwmSysfs;

std::string fan_config(const FakePwmSysfs& sysfs, const std::string& chip) {
  return "board = \"linux\"\npwm_sysfs_root = \"" + sysfs.root() + "\"\n" + R"(
[[pins]]
name = "fan"
pin = 18
type = "pwm_output"
safe_duty = 64
pwm = { chip = ")" +
         chip + R"(", channel = 1, frequency_hz = 25000 }
)";
}

TEST(PwmSysfs, PwmWriteDrivesTheChannelAndSigtermLeavesTheSafeDuty) {
  FakePwmSysfs sysfs;
  DaemonProcess daemon;
  const auto config = daemon.write_file("pwm.toml", fan_config(sysfs, "pwmchip0"));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  EXPECT_EQ(sysfs.exports(), 1);
  EXPECT_EQ(sysfs.attr(1, "period"), "40000");
  EXPECT_EQ(sysfs.attr(1, "enable"), "1");

  const auto reply = client->result("pwm_write", {{"pin", 18}, {"duty", 128}});
  EXPECT_EQ(reply.value("duty", -1), 128);
  EXPECT_EQ(sysfs.attr(1, "duty_cycle"), "20078");  // 40000 ns * 128 / 255

  client->result("pwm_write", {{"pin", 18}, {"duty", 255}, {"frequency_hz", 50000}});
  EXPECT_EQ(sysfs.attr(1, "period"), "20000");
  EXPECT_EQ(sysfs.attr(1, "duty_cycle"), "20000");

  daemon.signal(SIGTERM);
  ASSERT_EQ(daemon.wait_exit(10s), 0);
  EXPECT_TRUE(eventually([&] { return sysfs.unexports() == 1; }, 5s)) << "the channel mcpud exported is unexported";
  EXPECT_EQ(sysfs.duty_at_unexport(), "5020") << "safe_duty 64 of 255 at 20000 ns";
}

TEST(PwmSysfs, UnknownChipFailsAtStartListingTheChips) {
  FakePwmSysfs sysfs(2);
  DaemonProcess daemon;
  const auto config = daemon.write_file("pwm.toml", fan_config(sysfs, "pwmchip9"));
  ASSERT_TRUE(daemon.start({"--config", config, "--listen", "127.0.0.1:0"}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  EXPECT_TRUE(
      contains(daemon.log(), "pin 18 (fan), PWM pwmchip9/1: no PWM chip 'pwmchip9'; chips: pwmchip0 (2 channels)"));
}

}  // namespace
}  // namespace mcpud::it
