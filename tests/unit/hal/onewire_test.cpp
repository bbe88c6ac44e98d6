// SPDX-License-Identifier: MIT
// 1-Wire listing and thermometers against a fake /sys/bus/w1/devices tree.
#include "mcpud/hal/onewire.hpp"

#include <gtest/gtest.h>

#include "../../fixtures/fake_sysfs.hpp"

namespace mcpud::hal {
namespace {

using testing::FakeSysfs;

const std::string kDevices = "bus/w1/devices/";

void add_bus(const FakeSysfs& sysfs) {
  sysfs.write(kDevices + "w1_bus_master1/w1_master_slave_count", "3");
  sysfs.write(kDevices + "28-00000a1b2c3d/w1_slave",
              "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125");
  sysfs.write(kDevices + "28-00000a1b2c3e/temperature", "-10625");  // newer kernels
  sysfs.write(kDevices + "28-00000a1b2c3e/w1_slave", "unused");
  sysfs.write(kDevices + "3a-0000001f2e3d/state", "x");
}

TEST(OneWire, ListsDevicesWithFamilyAndWhetherTheyAreThermometers) {
  FakeSysfs sysfs;
  add_bus(sysfs);
  auto devices = list_onewire({sysfs.root()});
  ASSERT_TRUE(devices) << devices.error().message;
  ASSERT_EQ(devices->size(), 3u);
  EXPECT_EQ((*devices)[0].id, "28-00000a1b2c3d");
  EXPECT_EQ((*devices)[0].family, "28");
  EXPECT_EQ((*devices)[0].chip, "DS18B20");
  EXPECT_TRUE((*devices)[0].thermometer);
  EXPECT_EQ((*devices)[2].chip, "DS2413");
  EXPECT_FALSE((*devices)[2].thermometer);
}

TEST(OneWire, ThermometerReadsW1SlaveOrTemperatureInDegrees) {
  FakeSysfs sysfs;
  add_bus(sysfs);
  auto slave = open_onewire_thermometer({sysfs.root()}, "28-00000a1b2c3d");
  ASSERT_TRUE(slave) << slave.error().message;
  EXPECT_DOUBLE_EQ(*(*slave)->read(), 23.125);
  EXPECT_EQ((*slave)->quantity().unit, "degC");
  auto newer = open_onewire_thermometer({sysfs.root()}, "28-00000a1b2c3e");
  ASSERT_TRUE(newer);
  EXPECT_DOUBLE_EQ(*(*newer)->read(), -10.625);
}

TEST(OneWire, CrcNoIsAReadErrorNotAValue) {
  FakeSysfs sysfs;
  add_bus(sysfs);
  auto sensor = open_onewire_thermometer({sysfs.root()}, "28-00000a1b2c3d");
  ASSERT_TRUE(sensor);
  sysfs.write(kDevices + "28-00000a1b2c3d/w1_slave",
              "72 01 4b 46 7f ff 0e 10 58 : crc=57 NO\n72 01 4b 46 7f ff 0e 10 58 t=23125");
  auto bad = (*sensor)->read();
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, HalError::Kind::Io);
  EXPECT_NE(bad.error().message.find("w1_slave: CRC check failed"), std::string::npos) << bad.error().message;
}

TEST(OneWire, MissingBusDeviceOrANonThermometerIsExplained) {
  FakeSysfs sysfs;
  auto no_bus = list_onewire({sysfs.root()});
  ASSERT_FALSE(no_bus);
  EXPECT_NE(no_bus.error().message.find("bus/w1/devices does not exist: no 1-Wire bus master is loaded"),
            std::string::npos);
  EXPECT_NE(no_bus.error().message.find("dtoverlay=w1-gpio"), std::string::npos);

  add_bus(sysfs);
  auto missing = open_onewire_thermometer({sysfs.root()}, "28-0000deadbeef");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no 1-Wire device 28-0000deadbeef in " + sysfs.root() +
                                         "/bus/w1/devices; devices: 28-00000a1b2c3d, 28-00000a1b2c3e, "
                                         "3a-0000001f2e3d"),
            std::string::npos)
      << missing.error().message;
  auto not_thermometer = open_onewire_thermometer({sysfs.root()}, "3a-0000001f2e3d");
  ASSERT_FALSE(not_thermometer);
  EXPECT_NE(not_thermometer.error().message.find("(family 3a, DS2413) is not a thermometer"), std::string::npos);
}

TEST(OneWire, UnpluggedSensorIsDisconnectedUntilItIsBack) {
  FakeSysfs sysfs;
  add_bus(sysfs);
  auto sensor = open_onewire_thermometer({sysfs.root()}, "28-00000a1b2c3e");
  ASSERT_TRUE(sensor);
  sysfs.remove(kDevices + "28-00000a1b2c3e");
  auto gone = (*sensor)->read();
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, HalError::Kind::Disconnected);
  EXPECT_NE(gone.error().message.find("1-Wire device 28-00000a1b2c3e is not on the bus"), std::string::npos);
  sysfs.write(kDevices + "28-00000a1b2c3e/temperature", "4500");
  EXPECT_DOUBLE_EQ(*(*sensor)->read(), 4.5);
}

}  // namespace
}  // namespace mcpud::hal
