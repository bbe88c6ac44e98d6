// SPDX-License-Identifier: MIT
// Board health from fake /sys and /proc trees: what exists is read, the rest absent.
#include "mcpud/hal/board_health.hpp"

#include <gtest/gtest.h>

#include "../../fixtures/fake_sysfs.hpp"

namespace mcpud::hal {
namespace {

using testing::FakeSysfs;

void add_proc(const FakeSysfs& fake) {
  fake.write("proc/loadavg", "0.52 0.31 0.12 2/345 6789");
  fake.write("proc/meminfo", "MemTotal:        3884136 kB\nMemFree:         2000000 kB\nMemAvailable:    2912102 kB");
  fake.write("proc/uptime", "12345.67 40000.00");
}

TEST(BoardHealth, RaspberryPiFirmwareFlagsTemperatureLoadMemoryUptime) {
  FakeSysfs fake;
  add_proc(fake);
  fake.write("sys/class/thermal/thermal_zone0/type", "cpu-thermal");
  fake.write("sys/class/thermal/thermal_zone0/temp", "61234");
  fake.write("sys/devices/platform/soc/soc:firmware/get_throttled", "50005");
  const auto health = read_board_health({fake.root() + "/sys"}, fake.root() + "/proc");
  ASSERT_TRUE(health.cpu_temperature);
  EXPECT_DOUBLE_EQ(health.cpu_temperature->celsius, 61.234);
  EXPECT_EQ(health.cpu_temperature->zone, "cpu-thermal");
  ASSERT_TRUE(health.throttling);
  EXPECT_EQ(health.throttling->source, fake.root() + "/sys/devices/platform/soc/soc:firmware/get_throttled");
  EXPECT_EQ(health.throttling->raw, 0x50005u);
  EXPECT_TRUE(health.throttling->under_voltage_now);
  EXPECT_EQ(health.throttling->throttled_now, true);
  EXPECT_EQ(health.throttling->frequency_capped_now, false);
  EXPECT_EQ(health.throttling->under_voltage_occurred, true);
  EXPECT_EQ(health.throttling->throttled_occurred, true);
  EXPECT_EQ(health.throttling->soft_temperature_limit_occurred, false);
  ASSERT_TRUE(health.load);
  EXPECT_DOUBLE_EQ((*health.load)[0], 0.52);
  EXPECT_DOUBLE_EQ((*health.load)[2], 0.12);
  ASSERT_TRUE(health.memory);
  EXPECT_EQ(health.memory->total_bytes, 3884136ull * 1024);
  EXPECT_EQ(health.memory->available_bytes, 2912102ull * 1024);
  ASSERT_TRUE(health.uptime_s);
  EXPECT_DOUBLE_EQ(*health.uptime_s, 12345.67);
}

TEST(BoardHealth, RpiVoltHwmonGivesUnderVoltageOnlyAndSaysSo) {
  FakeSysfs fake;
  fake.write("sys/class/hwmon/hwmon1/name", "rpi_volt");
  fake.write("sys/class/hwmon/hwmon1/in0_lcrit_alarm", "1");
  const auto health = read_board_health({fake.root() + "/sys"}, fake.root() + "/proc");
  ASSERT_TRUE(health.throttling);
  EXPECT_EQ(health.throttling->source, fake.root() + "/sys/class/hwmon/hwmon1/in0_lcrit_alarm");
  EXPECT_TRUE(health.throttling->under_voltage_now);
  EXPECT_FALSE(health.throttling->raw);
  EXPECT_FALSE(health.throttling->throttled_now) << "unknown, not false";
}

TEST(BoardHealth, NothingExposedIsAllAbsent) {
  FakeSysfs fake;
  const auto health = read_board_health({fake.root() + "/sys"}, fake.root() + "/proc");
  EXPECT_FALSE(health.cpu_temperature);
  EXPECT_FALSE(health.throttling);
  EXPECT_FALSE(health.load);
  EXPECT_FALSE(health.memory);
  EXPECT_FALSE(health.uptime_s);
}

TEST(BoardHealth, AnotherBoardsZoneIsTheFirstWhenNoneIsNamedLikeACpu) {
  FakeSysfs fake;
  fake.write("sys/class/thermal/thermal_zone0/type", "acpitz");
  fake.write("sys/class/thermal/thermal_zone0/temp", "40000");
  const auto health = read_board_health({fake.root() + "/sys"}, fake.root() + "/proc");
  ASSERT_TRUE(health.cpu_temperature);
  EXPECT_EQ(health.cpu_temperature->zone, "acpitz");
  EXPECT_DOUBLE_EQ(health.cpu_temperature->celsius, 40.0);
}

}  // namespace
}  // namespace mcpud::hal
