// SPDX-License-Identifier: MIT
// IIO channels of every kind read from a fake sysfs tree, in SI units.
#include <gtest/gtest.h>

#include "../../fixtures/fake_sysfs.hpp"
#include "mcpud/hal/sensor.hpp"

namespace mcpud::hal {
namespace {

using testing::FakeSysfs;

std::unique_ptr<SensorInput> open_ok(const FakeSysfs& sysfs, const std::string& device, const std::string& channel) {
  auto sensor = open_iio_sensor({sysfs.root()}, device, channel);
  EXPECT_TRUE(sensor) << sensor.error().message;
  return sensor ? std::move(*sensor) : nullptr;
}

double read_ok(SensorInput& sensor) {
  auto value = sensor.read();
  EXPECT_TRUE(value) << value.error().message;
  return value ? *value : -1;
}

// What the bmp280 driver shows for a BME280: processed values only.
void add_bme280(const FakeSysfs& sysfs, int index) {
  const auto dir = sysfs.iio_device(index, "bme280");
  sysfs.write(dir + "/in_temp_input", "23125");              // millidegrees Celsius
  sysfs.write(dir + "/in_humidityrelative_input", "45123");  // milli percent
  sysfs.write(dir + "/in_pressure_input", "101.325000000");  // kPa
  sysfs.write(dir + "/in_temp_oversampling_ratio", "2");
}

TEST(IioSensor, ProcessedChannelsAreConvertedToSiUnits) {
  FakeSysfs sysfs;
  add_bme280(sysfs, 0);
  auto temp = open_ok(sysfs, "bme280", "temp");
  ASSERT_TRUE(temp);
  EXPECT_DOUBLE_EQ(read_ok(*temp), 23.125);
  EXPECT_EQ(temp->quantity().name, "temperature");
  EXPECT_EQ(temp->quantity().unit, "degC");

  auto humidity = open_ok(sysfs, "bme280", "humidityrelative");
  EXPECT_DOUBLE_EQ(read_ok(*humidity), 45.123);
  EXPECT_EQ(humidity->quantity().unit, "%RH");

  auto pressure = open_ok(sysfs, "bme280", "pressure");
  EXPECT_DOUBLE_EQ(read_ok(*pressure), 101325);
  EXPECT_EQ(pressure->quantity().unit, "Pa");
}

TEST(IioSensor, RawChannelsUseOffsetAndScaleOwnOrSharedByType) {
  FakeSysfs sysfs;
  const auto dir = sysfs.iio_device(2, "ads1015");
  sysfs.write(dir + "/in_voltage0_raw", "1000");
  sysfs.write(dir + "/in_voltage_scale", "0.5");  // shared by every voltage channel, mV per count
  sysfs.write(dir + "/in_voltage1_raw", "1000");
  sysfs.write(dir + "/in_voltage1_scale", "3");  // its own scale wins
  sysfs.write(dir + "/in_temp_raw", "100");
  sysfs.write(dir + "/in_temp_offset", "-50");
  sysfs.write(dir + "/in_temp_scale", "1000");
  sysfs.write(dir + "/in_accel_x_raw", "-100");
  sysfs.write(dir + "/in_accel_scale", "0.0098");
  sysfs.write(dir + "/in_current0_raw", "250");  // no scale: 1 mA per count

  EXPECT_DOUBLE_EQ(read_ok(*open_ok(sysfs, "ads1015", "voltage0")), 0.5);
  EXPECT_DOUBLE_EQ(read_ok(*open_ok(sysfs, "ads1015", "voltage1")), 3.0);
  EXPECT_DOUBLE_EQ(read_ok(*open_ok(sysfs, "ads1015", "temp")), 50.0);
  auto accel = open_ok(sysfs, "ads1015", "accel_x");
  EXPECT_NEAR(read_ok(*accel), -0.98, 1e-12);
  EXPECT_EQ(accel->quantity().name, "acceleration");
  EXPECT_EQ(accel->quantity().unit, "m/s^2");
  auto current = open_ok(sysfs, "ads1015", "current0");
  EXPECT_DOUBLE_EQ(read_ok(*current), 0.25);
  EXPECT_EQ(current->quantity().unit, "A");
}

TEST(IioSensor, DeviceIsFoundByNameLabelOrId) {
  FakeSysfs sysfs;
  add_bme280(sysfs, 0);
  const auto dir = sysfs.iio_device(1, "bme280");
  sysfs.write(dir + "/label", "outdoor");
  sysfs.write(dir + "/in_temp_input", "-5000");
  EXPECT_DOUBLE_EQ(read_ok(*open_ok(sysfs, "outdoor", "temp")), -5.0);
  EXPECT_DOUBLE_EQ(read_ok(*open_ok(sysfs, "iio:device1", "temp")), -5.0);
  EXPECT_DOUBLE_EQ(read_ok(*open_ok(sysfs, "bme280", "temp")), 23.125) << "the first device of that name";
}

TEST(IioSensor, MissingTreeDeviceOrChannelIsNamedWithWhatExists) {
  FakeSysfs sysfs;
  auto no_tree = open_iio_sensor({sysfs.root()}, "bme280", "temp");
  ASSERT_FALSE(no_tree);
  EXPECT_EQ(no_tree.error().kind, HalError::Kind::NotFound);
  EXPECT_NE(no_tree.error().message.find(sysfs.root() + "/bus/iio/devices does not exist: no IIO driver is loaded"),
            std::string::npos)
      << no_tree.error().message;

  add_bme280(sysfs, 0);
  auto no_device = open_iio_sensor({sysfs.root()}, "sht31", "temp");
  ASSERT_FALSE(no_device);
  EXPECT_NE(no_device.error().message.find("no IIO device named 'sht31' in " + sysfs.root() +
                                           "/bus/iio/devices; devices: iio:device0 (bme280)"),
            std::string::npos)
      << no_device.error().message;

  auto no_channel = open_iio_sensor({sysfs.root()}, "bme280", "voltage0");
  ASSERT_FALSE(no_channel);
  EXPECT_NE(no_channel.error().message.find("has no input channel 'voltage0' (no in_voltage0_input or "
                                            "in_voltage0_raw); its channels: humidityrelative, pressure, temp"),
            std::string::npos)
      << no_channel.error().message;
}

TEST(IioSensor, ValueThatIsNotANumberIsAReadError) {
  FakeSysfs sysfs;
  const auto dir = sysfs.iio_device(0, "bme280");
  sysfs.write(dir + "/in_temp_input", "oops");
  auto sensor = open_iio_sensor({sysfs.root()}, "bme280", "temp");
  ASSERT_FALSE(sensor);
  EXPECT_EQ(sensor.error().kind, HalError::Kind::Io);
  EXPECT_NE(sensor.error().message.find("in_temp_input: expected a number, read 'oops'"), std::string::npos)
      << sensor.error().message;
}

TEST(IioSensor, HotRemovalIsDisconnectedAndTheDeviceIsFoundAgainUnderANewIndex) {
  FakeSysfs sysfs;
  add_bme280(sysfs, 0);
  auto temp = open_ok(sysfs, "bme280", "temp");
  ASSERT_TRUE(temp);
  sysfs.remove("bus/iio/devices/iio:device0");
  auto gone = temp->read();
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().kind, HalError::Kind::Disconnected);
  EXPECT_NE(gone.error().message.find("IIO device 'bme280' is gone"), std::string::npos) << gone.error().message;

  add_bme280(sysfs, 4);  // rebound: a new index
  EXPECT_DOUBLE_EQ(read_ok(*temp), 23.125);
}

TEST(Quantities, KnownNamesHaveUnits) {
  EXPECT_EQ(quantity_named("temperature")->unit, "degC");
  EXPECT_EQ(quantity_named("humidity")->unit, "%RH");
  EXPECT_FALSE(quantity_named("warmth"));
  EXPECT_NE(known_quantities().find("pressure"), std::string::npos);
}

}  // namespace
}  // namespace mcpud::hal
