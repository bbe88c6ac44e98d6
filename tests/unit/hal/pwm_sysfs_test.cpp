// SPDX-License-Identifier: MIT
// The sysfs PWM backend against a fake /sys/class/pwm tree.
#include "mcpud/hal/pwm_sysfs.hpp"

#include <gtest/gtest.h>

#include "../../fixtures/fake_pwm_sysfs.hpp"

namespace mcpud::hal {
namespace {

using testing::FakePwmSysfs;

PwmSysfsSpec spec_for(const FakePwmSysfs& sysfs, unsigned channel, std::uint32_t frequency_hz) {
  PwmSysfsSpec spec;
  spec.root = sysfs.root();
  spec.chip = "pwmchip0";
  spec.channel = channel;
  spec.frequency_hz = frequency_hz;
  return spec;
}

TEST(PwmSysfs, PeriodAndDutyFromFrequencyAndFraction) {
  EXPECT_EQ(pwm_period_ns(25000), 40000u);
  EXPECT_EQ(pwm_period_ns(1), 1000000000u);
  EXPECT_EQ(pwm_duty_ns(40000, 0.5), 20000u);
  EXPECT_EQ(pwm_duty_ns(40000, 128.0 / 255), 20078u);
  EXPECT_EQ(pwm_duty_ns(40000, 1.0), 40000u);
}

TEST(PwmSysfs, ExportsConfiguresEnablesAndUnexportsOnRelease) {
  FakePwmSysfs sysfs;
  {
    auto pwm = open_sysfs_pwm(spec_for(sysfs, 1, 25000));
    ASSERT_TRUE(pwm) << pwm.error().message;
    EXPECT_EQ(sysfs.exports(), 1);
    EXPECT_EQ(sysfs.attr(1, "period"), "40000");
    EXPECT_EQ(sysfs.attr(1, "duty_cycle"), "0");
    EXPECT_EQ(sysfs.attr(1, "polarity"), "normal");
    EXPECT_EQ(sysfs.attr(1, "enable"), "1");

    ASSERT_TRUE((*pwm)->set({0.5, 0}));
    EXPECT_EQ(sysfs.attr(1, "duty_cycle"), "20000");
    EXPECT_EQ((*pwm)->state().frequency_hz, 25000u) << "frequency 0 keeps the current one";

    ASSERT_TRUE((*pwm)->set({0.25, 50000}));  // shorter period: duty written first
    EXPECT_EQ(sysfs.attr(1, "period"), "20000");
    EXPECT_EQ(sysfs.attr(1, "duty_cycle"), "5000");
    EXPECT_FALSE((*pwm)->set({1.5, 0})) << "duty above 1 is refused";
  }
  // The fake kernel removes the directory when it sees the unexport.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (sysfs.unexports() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(sysfs.unexports(), 1);
  EXPECT_FALSE(std::filesystem::exists(sysfs.channel(1)));
}

TEST(PwmSysfs, InvertedPolarity) {
  FakePwmSysfs sysfs;
  auto spec = spec_for(sysfs, 0, 1000);
  spec.inverted = true;
  auto pwm = open_sysfs_pwm(spec);
  ASSERT_TRUE(pwm) << pwm.error().message;
  EXPECT_EQ(sysfs.attr(0, "polarity"), "inversed");
  EXPECT_EQ(sysfs.attr(0, "period"), "1000000");
}

TEST(PwmSysfs, AlreadyExportedChannelIsUsedAndLeftExported) {
  FakePwmSysfs sysfs;
  sysfs.create_channel(0);
  {
    auto pwm = open_sysfs_pwm(spec_for(sysfs, 0, 1000));
    ASSERT_TRUE(pwm) << pwm.error().message;
    EXPECT_EQ(sysfs.attr(0, "enable"), "1");
  }
  EXPECT_EQ(sysfs.exports(), 0);
  EXPECT_EQ(FakePwmSysfs::read(std::filesystem::path(sysfs.root()) / "pwmchip0" / "unexport"), "");
  EXPECT_TRUE(std::filesystem::exists(sysfs.channel(0)));
}

TEST(PwmSysfs, UnknownChipListsTheChipsThatExist) {
  FakePwmSysfs sysfs(4);
  auto spec = spec_for(sysfs, 0, 1000);
  spec.chip = "pwmchip7";
  auto pwm = open_sysfs_pwm(spec);
  ASSERT_FALSE(pwm);
  EXPECT_EQ(pwm.error().kind, HalError::Kind::NotFound);
  EXPECT_NE(pwm.error().message.find("no PWM chip 'pwmchip7'; chips: pwmchip0 (4 channels)"), std::string::npos)
      << pwm.error().message;
}

TEST(PwmSysfs, ChannelBeyondNpwmIsRefused) {
  FakePwmSysfs sysfs(2);
  auto pwm = open_sysfs_pwm(spec_for(sysfs, 2, 1000));
  ASSERT_FALSE(pwm);
  EXPECT_NE(pwm.error().message.find("pwmchip0 has 2 channels; channel 2 does not exist"), std::string::npos)
      << pwm.error().message;
}

TEST(PwmSysfs, RootWithoutChipsSaysSo) {
  FakePwmSysfs sysfs(2);
  auto spec = spec_for(sysfs, 0, 1000);
  spec.root = sysfs.root() + "/nothing";
  auto pwm = open_sysfs_pwm(spec);
  ASSERT_FALSE(pwm);
  EXPECT_NE(pwm.error().message.find("no PWM chips in " + spec.root), std::string::npos) << pwm.error().message;
}

}  // namespace
}  // namespace mcpud::hal
