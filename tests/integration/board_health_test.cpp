// SPDX-License-Identifier: MIT
// board_health through the real mcpud, reading fake /sys and /proc trees given by
// the config (sysfs_root, procfs_root): the firmware's flags with the file they
// came from, and nothing at all for what the system does not expose.
#include "../fixtures/fake_sysfs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using mcpud::testing::FakeSysfs;

json health_of(const FakeSysfs& fake, const std::string& board) {
  DaemonProcess daemon;
  const auto config = "board = \"" + board + "\"\nsysfs_root = \"" + fake.root() + "/sys\"\nprocfs_root = \"" +
                      fake.root() + "/proc\"\n";
  const int port = daemon.start_tcp({"--config", daemon.write_file("health.toml", config)});
  EXPECT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  EXPECT_TRUE(client);
  return client ? client->result("board_health") : json();
}

TEST(BoardHealthTool, ReportsAPiThatIsThrottledWithItsSources) {
  FakeSysfs fake;
  fake.write("proc/loadavg", "1.50 0.75 0.25 3/210 999");
  fake.write("proc/meminfo", "MemTotal:        1000000 kB\nMemAvailable:     250000 kB");
  fake.write("proc/uptime", "3600.50 7000.00");
  fake.write("sys/class/thermal/thermal_zone0/type", "cpu-thermal");
  fake.write("sys/class/thermal/thermal_zone0/temp", "82300");
  fake.write("sys/devices/platform/soc/soc:firmware/get_throttled", "e0008");
  const json health = health_of(fake, "raspberrypi");
  EXPECT_EQ(health["cpu_temperature"], (json{{"value", 82.3}, {"unit", "degC"}, {"zone", "cpu-thermal"}}));
  const json& t = health["throttling"];
  EXPECT_EQ(t["source"], fake.root() + "/sys/devices/platform/soc/soc:firmware/get_throttled");
  EXPECT_EQ(t["raw"], "0xe0008");
  EXPECT_EQ(t["under_voltage_now"], false);
  EXPECT_EQ(t["soft_temperature_limit_now"], true);
  EXPECT_EQ(t["frequency_capped_occurred"], true);
  EXPECT_EQ(t["throttled_occurred"], true);
  EXPECT_EQ(t["soft_temperature_limit_occurred"], true);
  EXPECT_EQ(t["under_voltage_occurred"], false);
  EXPECT_EQ(health["load"], (json{{"1m", 1.5}, {"5m", 0.75}, {"15m", 0.25}}));
  EXPECT_EQ(health["memory"]["used_percent"], 75.0);
  EXPECT_EQ(health["memory"]["total_bytes"], 1024000000);
  EXPECT_EQ(health["uptime_s"], 3600.5);
}

TEST(BoardHealthTool, UnderVoltageFromRpiVoltAndAbsentFieldsStayAbsent) {
  FakeSysfs fake;
  fake.write("sys/class/hwmon/hwmon1/name", "rpi_volt");
  fake.write("sys/class/hwmon/hwmon1/in0_lcrit_alarm", "1");
  const json health = health_of(fake, "linux");
  EXPECT_EQ(health["throttling"],
            (json{{"source", fake.root() + "/sys/class/hwmon/hwmon1/in0_lcrit_alarm"}, {"under_voltage_now", true}}));
  for (const char* absent : {"cpu_temperature", "load", "memory", "uptime_s"})
    EXPECT_FALSE(health.contains(absent)) << absent << " in " << health.dump();

  const json nothing = health_of(FakeSysfs(), "sim");
  EXPECT_EQ(nothing, json::object()) << "no thermal zone, no firmware flags, no /proc: nothing said";
}

}  // namespace
}  // namespace mcpud::it
