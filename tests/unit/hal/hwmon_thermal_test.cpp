// SPDX-License-Identifier: MIT
// hwmon inputs and thermal zones read from a fake sysfs tree, in SI units.
#include <gtest/gtest.h>

#include "../../fixtures/fake_sysfs.hpp"
#include "mcpud/hal/sensor.hpp"

namespace mcpud::hal {
namespace {

using testing::FakeSysfs;

double value_of(HalResult<std::unique_ptr<SensorInput>> sensor) {
  EXPECT_TRUE(sensor) << sensor.error().message;
  if (!sensor) return -1;
  auto value = (*sensor)->read();
  EXPECT_TRUE(value) << value.error().message;
  return value ? *value : -1;
}

// A Raspberry Pi's hwmon chips, and an LM75 and an INA219 on I2C.
void add_hwmon(const FakeSysfs& sysfs) {
  sysfs.write("class/hwmon/hwmon0/name", "cpu_thermal");
  sysfs.write("class/hwmon/hwmon0/temp1_input", "48312");
  sysfs.write("class/hwmon/hwmon1/name", "rpi_volt");
  sysfs.write("class/hwmon/hwmon1/in0_lcrit_alarm", "0");
  sysfs.write("class/hwmon/hwmon2/name", "lm75");
  sysfs.write("class/hwmon/hwmon2/device/temp1_input", "-2500");  // an older driver: under device/
  sysfs.write("class/hwmon/hwmon3/name", "ina219");
  sysfs.write("class/hwmon/hwmon3/in1_input", "5012");        // mV
  sysfs.write("class/hwmon/hwmon3/curr1_input", "250");       // mA
  sysfs.write("class/hwmon/hwmon3/power1_input", "1253000");  // uW
  sysfs.write("class/hwmon/hwmon4/name", "pwmfan");
  sysfs.write("class/hwmon/hwmon4/fan1_input", "2400");
}

TEST(Hwmon, InputsByChipNameInSiUnits) {
  FakeSysfs sysfs;
  add_hwmon(sysfs);
  EXPECT_DOUBLE_EQ(value_of(open_hwmon_sensor({sysfs.root()}, "cpu_thermal", "temp1")), 48.312);
  EXPECT_DOUBLE_EQ(value_of(open_hwmon_sensor({sysfs.root()}, "lm75", "temp1")), -2.5);
  EXPECT_DOUBLE_EQ(value_of(open_hwmon_sensor({sysfs.root()}, "ina219", "in1")), 5.012);
  EXPECT_DOUBLE_EQ(value_of(open_hwmon_sensor({sysfs.root()}, "ina219", "curr1")), 0.25);
  EXPECT_DOUBLE_EQ(value_of(open_hwmon_sensor({sysfs.root()}, "ina219", "power1")), 1.253);
  EXPECT_DOUBLE_EQ(value_of(open_hwmon_sensor({sysfs.root()}, "hwmon4", "fan1")), 2400);
  auto power = open_hwmon_sensor({sysfs.root()}, "ina219", "power1");
  ASSERT_TRUE(power);
  EXPECT_EQ((*power)->quantity().unit, "W");
  auto fan = open_hwmon_sensor({sysfs.root()}, "pwmfan", "fan1");
  ASSERT_TRUE(fan);
  EXPECT_EQ((*fan)->quantity().unit, "rpm");
}

TEST(Hwmon, MissingChipOrInputIsNamedWithWhatExists) {
  FakeSysfs sysfs;
  auto no_tree = open_hwmon_sensor({sysfs.root()}, "lm75", "temp1");
  ASSERT_FALSE(no_tree);
  EXPECT_NE(no_tree.error().message.find(sysfs.root() + "/class/hwmon does not exist"), std::string::npos);

  add_hwmon(sysfs);
  auto no_chip = open_hwmon_sensor({sysfs.root()}, "sht3x", "temp1");
  ASSERT_FALSE(no_chip);
  EXPECT_NE(no_chip.error().message.find("no hwmon chip named 'sht3x' in " + sysfs.root() +
                                         "/class/hwmon; chips: hwmon0 (cpu_thermal), hwmon1 (rpi_volt), hwmon2 (lm75)"),
            std::string::npos)
      << no_chip.error().message;
  auto no_input = open_hwmon_sensor({sysfs.root()}, "ina219", "temp1");
  ASSERT_FALSE(no_input);
  EXPECT_NE(no_input.error().message.find("has no temp1_input; its inputs: curr1, in1, power1"), std::string::npos)
      << no_input.error().message;
  auto odd = open_hwmon_sensor({sysfs.root()}, "ina219", "pwm1");
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error().kind, HalError::Kind::InvalidArgument);
}

TEST(Hwmon, RebindUnderAnotherIndexIsFoundAgain) {
  FakeSysfs sysfs;
  add_hwmon(sysfs);
  auto lm75 = open_hwmon_sensor({sysfs.root()}, "lm75", "temp1");
  ASSERT_TRUE(lm75);
  sysfs.remove("class/hwmon/hwmon2");
  auto gone = (*lm75)->read();
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, HalError::Kind::Disconnected);
  EXPECT_NE(gone.error().message.find("hwmon chip 'lm75' is gone"), std::string::npos) << gone.error().message;
  sysfs.write("class/hwmon/hwmon7/name", "lm75");
  sysfs.write("class/hwmon/hwmon7/temp1_input", "21000");
  auto back = (*lm75)->read();
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_DOUBLE_EQ(*back, 21.0);
}

TEST(ThermalZone, ByTypeInDegreesCelsius) {
  FakeSysfs sysfs;
  sysfs.write("class/thermal/thermal_zone0/type", "cpu-thermal");
  sysfs.write("class/thermal/thermal_zone0/temp", "51540");
  sysfs.write("class/thermal/cooling_device0/type", "pwm-fan");
  auto zone = open_thermal_zone({sysfs.root()}, "cpu-thermal");
  ASSERT_TRUE(zone) << zone.error().message;
  EXPECT_DOUBLE_EQ(*(*zone)->read(), 51.54);
  EXPECT_EQ((*zone)->quantity().unit, "degC");
  EXPECT_DOUBLE_EQ(value_of(open_thermal_zone({sysfs.root()}, "thermal_zone0")), 51.54);

  auto other = open_thermal_zone({sysfs.root()}, "gpu-thermal");
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("no thermal zone of type 'gpu-thermal' in " + sysfs.root() +
                                       "/class/thermal; zones: thermal_zone0 (cpu-thermal)"),
            std::string::npos)
      << other.error().message;
}

TEST(ThermalZone, UnreadableTemperatureIsAReadError) {
  FakeSysfs sysfs;
  sysfs.write("class/thermal/thermal_zone0/type", "cpu-thermal");
  sysfs.write("class/thermal/thermal_zone0/temp", "");
  auto zone = open_thermal_zone({sysfs.root()}, "cpu-thermal");
  ASSERT_FALSE(zone);
  EXPECT_EQ(zone.error().kind, HalError::Kind::Io);
  EXPECT_NE(zone.error().message.find("thermal_zone0/temp: expected a number"), std::string::npos);
}

}  // namespace
}  // namespace mcpud::hal
