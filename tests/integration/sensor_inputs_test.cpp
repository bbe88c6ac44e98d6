// SPDX-License-Identifier: MIT
// sensor_input pins reading a fake sysfs tree (sysfs_root): IIO channels,
// hwmon inputs, thermal zones and 1-Wire thermometers (and onewire_list),
// values in SI units with their unit over MCP/U and MCP, in the pin registry,
// resources, sampling and threshold events; a hot-removed device answers
// DEVICE_DISCONNECTED and recovers; a missing one is named at start.
#include "../fixtures/fake_sysfs.hpp"
#include "support/deadline.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using mcpud::testing::FakeSysfs;

void add_bme280(const FakeSysfs& sysfs, int index, const std::string& millidegrees = "23125") {
  const auto dir = sysfs.iio_device(index, "bme280");
  sysfs.write(dir + "/in_temp_input", millidegrees);
  sysfs.write(dir + "/in_humidityrelative_input", "45123");
  sysfs.write(dir + "/in_pressure_input", "101.325");
}

std::string iio_config(const FakeSysfs& sysfs) {
  return "board = \"linux\"\nsysfs_root = \"" + sysfs.root() + "\"\n" + R"(
[[pins]]
name = "room_temp"
pin = 100
type = "sensor_input"
description = "BME280 temperature"
iio = { device = "bme280", channel = "temp" }
sampling = { interval_ms = 20, buffer_size = 10, thresholds = [20.0, 30.0], hysteresis = 0.5 }

[[pins]]
name = "room_humidity"
pin = 101
type = "sensor_input"
iio = { device = "bme280", channel = "humidityrelative" }

[[pins]]
name = "tilt"
pin = 102
type = "sensor_input"
iio = { device = "mpu6050", channel = "accel_z" }
)";
}

void add_mpu6050(const FakeSysfs& sysfs) {
  const auto dir = sysfs.iio_device(1, "mpu6050");
  sysfs.write(dir + "/in_accel_z_raw", "16384");
  sysfs.write(dir + "/in_accel_scale", "0.000598");
}

class SensorInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    add_bme280(sysfs_, 0);
    add_mpu6050(sysfs_);
    port_ = daemon_.start_tcp({"--config", daemon_.write_file("sensors.toml", iio_config(sysfs_))});
    ASSERT_NE(port_, 0);
    client_ = LineClient::connect_tcp(port_);
    ASSERT_TRUE(client_);
  }

  FakeSysfs sysfs_;
  DaemonProcess daemon_;
  int port_ = 0;
  std::optional<LineClient> client_;
};

TEST_F(SensorInputs, SensorReadAnswersSiUnitsNamed) {
  EXPECT_EQ(
      client_->result("sensor_read", {{"pin", 100}}),
      (json{{"pin", 100}, {"name", "room_temp"}, {"value", 23.125}, {"unit", "degC"}, {"quantity", "temperature"}}));
  const json humidity = client_->result("sensor_read", {{"pin", "room_humidity"}});
  EXPECT_EQ(humidity["value"], 45.123);
  EXPECT_EQ(humidity["unit"], "%RH");
  const json tilt = client_->result("sensor_read", {{"pin", 102}});
  EXPECT_NEAR(tilt["value"].get<double>(), 9.79763, 1e-5);
  EXPECT_EQ(tilt["unit"], "m/s^2");
  EXPECT_TRUE(is_error(client_->call("adc_read", {{"pin", 100}}), -32002, "WRONG_PIN_TYPE"));
}

TEST_F(SensorInputs, UnitsAreInTheRegistryToolDescriptionAndResources) {
  const json listing = client_->result("list_tools");
  const auto& pins = listing["pins"];
  ASSERT_EQ(pins.size(), 3u) << pins.dump();
  EXPECT_EQ(pins[0]["type"], "sensor_input");
  EXPECT_EQ(pins[0]["unit"], "degC");
  EXPECT_EQ(pins[0]["quantity"], "temperature");
  EXPECT_EQ(pins[2]["unit"], "m/s^2");
  std::string description;
  for (const auto& tool : listing["tools"]) {
    if (tool["name"] == "sensor_read") description = tool["description"];
  }
  EXPECT_TRUE(contains(description,
                       "100 room_temp (temperature, degC), 101 room_humidity (humidity, %RH), 102 tilt "
                       "(acceleration, m/s^2)"));

  const json read = client_->result("resources/read", {{"uri", "mcpu://pins/room_humidity"}});
  const json pin = json::parse(read["contents"][0]["text"].get<std::string>());
  EXPECT_EQ(pin["value"], 45.123);
  EXPECT_EQ(pin["unit"], "%RH");
}

TEST_F(SensorInputs, ToolsCallOverMcpCarriesValueAndUnit) {
  client_->result("initialize", {{"protocolVersion", "2025-06-18"},
                                 {"capabilities", json::object()},
                                 {"clientInfo", {{"name", "sensor-test"}, {"version", "1"}}}});
  const json called = client_->result("tools/call", {{"name", "sensor_read"}, {"arguments", {{"pin", 100}}}});
  ASSERT_EQ(called["isError"], false) << called.dump();
  EXPECT_EQ(called["structuredContent"]["value"], 23.125);
  EXPECT_EQ(called["structuredContent"]["unit"], "degC");
}

TEST_F(SensorInputs, SamplingKeepsSiValuesAndThresholdEventsFire) {
  ASSERT_TRUE(eventually(
      [&] {
        return client_->result("get_pin_summary", {{"name", "room_temp"}})["samples"] >= 2;
      },
      5s));
  EXPECT_EQ(client_->result("get_pin_summary", {{"name", "room_temp"}})["latest"], 23.125);
  sysfs_.write("bus/iio/devices/iio:device0/in_temp_input", "31500");
  json events;
  ASSERT_TRUE(eventually(
      [&] {
        events = client_->result("get_pin_events", {{"name", "room_temp"}});
        return !events["events"].empty();
      },
      5s));
  EXPECT_EQ(events["events"][0]["type"], "threshold_high") << events.dump();
  EXPECT_EQ(events["events"][0]["value"], 31.5);
  const json buffer = client_->result("get_pin_buffer", {{"name", "room_temp"}});
  EXPECT_EQ(buffer["values"].back(), 31.5) << buffer.dump();
}

TEST_F(SensorInputs, HotRemovalAnswersDeviceDisconnectedAndTheSensorRecovers) {
  sysfs_.remove("bus/iio/devices/iio:device0");
  const json gone = client_->call("sensor_read", {{"pin", 100}});
  ASSERT_TRUE(is_error(gone, -32012, "DEVICE_DISCONNECTED"));
  EXPECT_TRUE(contains(gone["error"]["message"], "IIO device 'bme280' is gone"));
  add_bme280(sysfs_, 5, "24000");  // back under a new index
  EXPECT_EQ(client_->result("sensor_read", {{"pin", 100}})["value"], 24.0);
}

TEST(SensorStart, MissingDeviceIsNamedAtStartAndByCheckConfig) {
  FakeSysfs sysfs;
  add_bme280(sysfs, 0);
  DaemonProcess daemon;
  const auto config = daemon.write_file("sensors.toml", iio_config(sysfs));  // no mpu6050
  ASSERT_TRUE(daemon.start({"--check-config", config}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  EXPECT_TRUE(contains(daemon.log(), "pin 102 (tilt), IIO mpu6050/accel_z: no IIO device named 'mpu6050' in " +
                                         sysfs.root() + "/bus/iio/devices; devices: iio:device0 (bme280)"));

  DaemonProcess started;
  ASSERT_TRUE(started.start({"--config", config, "--listen", "127.0.0.1:0"}));
  EXPECT_EQ(started.wait_exit(10s), 1);
  EXPECT_TRUE(contains(started.log(), "pin 102 (tilt), IIO mpu6050/accel_z: no IIO device named 'mpu6050'"));
}

// A Raspberry Pi's CPU temperature (thermal zone and hwmon) and an LM75 on I2C.
void add_pi_sensors(const FakeSysfs& sysfs) {
  sysfs.write("class/thermal/thermal_zone0/type", "cpu-thermal");
  sysfs.write("class/thermal/thermal_zone0/temp", "51540");
  sysfs.write("class/hwmon/hwmon0/name", "cpu_thermal");
  sysfs.write("class/hwmon/hwmon0/temp1_input", "51540");
  sysfs.write("class/hwmon/hwmon2/name", "lm75");
  sysfs.write("class/hwmon/hwmon2/temp1_input", "19500");
}

std::string pi_config(const FakeSysfs& sysfs) {
  return "board = \"raspberrypi\"\nsysfs_root = \"" + sysfs.root() + "\"\n" + R"(
[[pins]]
name = "cpu_temp"
pin = 120
type = "sensor_input"
thermal = { zone = "cpu-thermal" }
sampling = { interval_ms = 20, thresholds = [40.0, 70.0] }

[[pins]]
name = "cpu_hwmon"
pin = 121
type = "sensor_input"
hwmon = { device = "cpu_thermal", input = "temp1" }

[[pins]]
name = "shed"
pin = 122
type = "sensor_input"
hwmon = { device = "lm75", input = "temp1" }
)";
}

TEST(SensorHwmonThermal, CpuTemperatureAndAnLm75InDegreesWithRecoveryAfterRemoval) {
  FakeSysfs sysfs;
  add_pi_sensors(sysfs);
  DaemonProcess daemon;
  const int port = daemon.start_tcp({"--config", daemon.write_file("pi.toml", pi_config(sysfs))});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  EXPECT_EQ(
      client->result("sensor_read", {{"name", "cpu_temp"}}),
      (json{{"pin", 120}, {"name", "cpu_temp"}, {"value", 51.54}, {"unit", "degC"}, {"quantity", "temperature"}}));
  EXPECT_EQ(client->result("sensor_read", {{"pin", 121}})["value"], 51.54);
  EXPECT_EQ(client->result("sensor_read", {{"pin", 122}})["value"], 19.5);

  sysfs.write("class/thermal/thermal_zone0/temp", "75000");
  json events;
  ASSERT_TRUE(eventually(
      [&] {
        events = client->result("get_pin_events", {{"name", "cpu_temp"}});
        return !events["events"].empty();
      },
      5s));
  EXPECT_EQ(events["events"][0]["value"], 75.0) << events.dump();

  sysfs.remove("class/hwmon/hwmon2");  // the LM75's driver unbound
  const json gone = client->call("sensor_read", {{"pin", 122}});
  ASSERT_TRUE(is_error(gone, -32012, "DEVICE_DISCONNECTED"));
  EXPECT_TRUE(contains(gone["error"]["message"], "pin 122 (shed): hwmon chip 'lm75' is gone: no hwmon chip named"));
  EXPECT_EQ(client->result("sensor_read", {{"pin", 120}})["value"], 75.0) << "the other sensors still answer";
  sysfs.write("class/hwmon/hwmon5/name", "lm75");
  sysfs.write("class/hwmon/hwmon5/temp1_input", "18250");
  EXPECT_EQ(client->result("sensor_read", {{"pin", 122}})["value"], 18.25);
}

TEST(SensorHwmonThermal, MissingThermalZoneIsNamedByCheckConfig) {
  FakeSysfs sysfs;
  add_pi_sensors(sysfs);
  sysfs.write("class/thermal/thermal_zone0/type", "soc-thermal");
  DaemonProcess daemon;
  ASSERT_TRUE(daemon.start({"--check-config", daemon.write_file("pi.toml", pi_config(sysfs))}));
  EXPECT_EQ(daemon.wait_exit(10s), 1);
  EXPECT_TRUE(contains(daemon.log(),
                       "pin 120 (cpu_temp), thermal zone cpu-thermal: no thermal zone of type "
                       "'cpu-thermal' in " +
                           sysfs.root() + "/class/thermal; zones: thermal_zone0 (soc-thermal)"));
}

const std::string kW1 = "bus/w1/devices/";

TEST(SensorOneWire, Ds18b20ReadsOnewireListListsAndACrcErrorIsAReadError) {
  FakeSysfs sysfs;
  sysfs.write(kW1 + "w1_bus_master1/w1_master_slave_count", "2");
  sysfs.write(kW1 + "28-00000a1b2c3d/w1_slave",
              "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125");
  sysfs.write(kW1 + "3a-0000001f2e3d/state", "x");
  DaemonProcess daemon;
  const auto config = "board = \"raspberrypi\"\nsysfs_root = \"" + sysfs.root() + "\"\n" + R"(
[[pins]]
name = "tank"
pin = 130
type = "sensor_input"
onewire = { id = "28-00000a1b2c3d" }
)";
  const int port = daemon.start_tcp({"--config", daemon.write_file("w1.toml", config)});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  EXPECT_EQ(client->result("sensor_read", {{"name", "tank"}}),
            (json{{"pin", 130}, {"name", "tank"}, {"value", 23.125}, {"unit", "degC"}, {"quantity", "temperature"}}));
  EXPECT_EQ(client->result("onewire_list"),
            json::parse(R"({"devices":[{"id":"28-00000a1b2c3d","family":"28","chip":"DS18B20","thermometer":true},
                                       {"id":"3a-0000001f2e3d","family":"3a","chip":"DS2413","thermometer":false}]})"));

  sysfs.write(kW1 + "28-00000a1b2c3d/w1_slave",
              "72 01 4b 46 7f ff 0e 10 58 : crc=57 NO\n72 01 4b 46 7f ff 0e 10 58 t=23125");
  const json crc = client->call("sensor_read", {{"pin", 130}});
  ASSERT_TRUE(is_error(crc, -32010, "READ_ERROR"));
  EXPECT_TRUE(contains(crc["error"]["message"], "CRC check failed"));

  sysfs.remove(kW1 + "28-00000a1b2c3d");  // unplugged
  EXPECT_TRUE(is_error(client->call("sensor_read", {{"pin", 130}}), -32012, "DEVICE_DISCONNECTED"));
  sysfs.write(kW1 + "28-00000a1b2c3d/temperature", "19000");
  EXPECT_EQ(client->result("sensor_read", {{"pin", 130}})["value"], 19.0);

  sysfs.remove("bus/w1");
  const json no_bus = client->call("onewire_list");
  ASSERT_TRUE(is_error(no_bus, -32010, "READ_ERROR"));
  EXPECT_TRUE(contains(no_bus["error"]["message"], "no 1-Wire bus master is loaded"));
}

}  // namespace
}  // namespace mcpud::it
