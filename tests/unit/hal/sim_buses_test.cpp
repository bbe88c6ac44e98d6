// SPDX-License-Identifier: MIT
// The simulated board's buses through the ioctls i2c-dev and spidev take (the
// structures and errno values of the kernel's ABI), so what is proven here is
// what the bus tools meet: each emulated chip answers as its datasheet says
// (BME280, 24C32, LM75, DS3231, MCP3008), i2c-dev's rules hold (a driver's
// address is EBUSY unless forced, a silent address is not acknowledged, an
// I2C-only adapter cannot do SMBus block reads), and the 1-Wire bus is a sysfs
// tree that hal's own 1-Wire code reads, a conversion waiting 750 ms.
#include "mcpud/hal/sim_buses.hpp"

#include <gtest/gtest.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <linux/spi/spidev.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <vector>

#include "../../fixtures/bme280_compensation.hpp"
#include "mcpud/hal/onewire.hpp"
#include "sim/mcp3008.hpp"
#include "sim/sim_onewire.hpp"
#include "sim/sim_room.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

class SimBusesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SimBuses::Options options;
    options.clock = [this] { return now_ms_; };
    options.sleep = [this](std::chrono::milliseconds wait) { slept_.push_back(wait); };
    auto made = SimBuses::make(options);
    ASSERT_TRUE(made) << made.error().message;
    buses_ = std::move(*made);
  }
  void TearDown() override {
    for (const int fd : fds_) buses_->close(fd);
  }

  // /dev/i2c-1 with `address` selected (forced when asked).
  int i2c(std::uint8_t address, bool force = false) {
    const int fd = buses_->open("/dev/i2c-1");
    EXPECT_GE(fd, 0);
    fds_.push_back(fd);
    EXPECT_EQ(buses_->ioctl(fd, force ? I2C_SLAVE_FORCE : I2C_SLAVE, reinterpret_cast<void*>(std::uintptr_t{address})),
              0);
    return fd;
  }
  int smbus(int fd, std::uint8_t read_write, std::uint8_t command, std::uint32_t size, i2c_smbus_data* data) {
    i2c_smbus_ioctl_data request{read_write, command, size, data};
    return buses_->ioctl(fd, I2C_SMBUS, &request);
  }
  int read_byte(int fd, std::uint8_t reg) {
    i2c_smbus_data data{};
    const int got = smbus(fd, I2C_SMBUS_READ, reg, I2C_SMBUS_BYTE_DATA, &data);
    return got < 0 ? got : data.byte;
  }
  void write_byte(int fd, std::uint8_t reg, std::uint8_t value) {
    i2c_smbus_data data{};
    data.byte = value;
    EXPECT_EQ(smbus(fd, I2C_SMBUS_WRITE, reg, I2C_SMBUS_BYTE_DATA, &data), 0);
  }
  std::vector<int> read_block(int fd, std::uint8_t reg, std::uint8_t length) {
    i2c_smbus_data data{};
    data.block[0] = length;
    EXPECT_EQ(smbus(fd, I2C_SMBUS_READ, reg, I2C_SMBUS_I2C_BLOCK_DATA, &data), 0);
    return {data.block + 1, data.block + 1 + length};
  }
  // One I2C_RDWR: `write` (if any), then `read_length` bytes with a repeated start.
  int rdwr(std::uint16_t address, std::vector<std::uint8_t> write, std::vector<std::uint8_t>& read) {
    const int fd = buses_->open("/dev/i2c-1");
    fds_.push_back(fd);
    i2c_msg messages[2];
    __u32 count = 0;
    if (!write.empty()) messages[count++] = {address, 0, static_cast<__u16>(write.size()), write.data()};
    if (!read.empty()) messages[count++] = {address, I2C_M_RD, static_cast<__u16>(read.size()), read.data()};
    i2c_rdwr_ioctl_data request{messages, count};
    return buses_->ioctl(fd, I2C_RDWR, &request);
  }
  // One full-duplex transfer on /dev/spidev0.0.
  std::vector<std::uint8_t> spi(std::vector<std::uint8_t> tx) {
    const int fd = buses_->open("/dev/spidev0.0");
    EXPECT_GE(fd, 0);
    fds_.push_back(fd);
    std::vector<std::uint8_t> rx(tx.size());
    spi_ioc_transfer t{};
    t.tx_buf = reinterpret_cast<std::uintptr_t>(tx.data());
    t.rx_buf = reinterpret_cast<std::uintptr_t>(rx.data());
    t.len = static_cast<__u32>(tx.size());
    EXPECT_EQ(buses_->ioctl(fd, SPI_IOC_MESSAGE(1), &t), static_cast<int>(tx.size()));
    return rx;
  }
  testing::Bme280Calibration calibration(int fd) {
    return testing::bme280_calibration(read_block(fd, 0x88, 26), read_block(fd, 0xE1, 7));
  }

  std::int64_t now_ms_ = 1'000'000;
  std::vector<std::chrono::milliseconds> slept_;
  std::unique_ptr<SimBuses> buses_;
  std::vector<int> fds_;
};

TEST_F(SimBusesTest, OnlyTheBoardsDeviceNodesOpen) {
  EXPECT_EQ(buses_->open("/dev/i2c-0"), -ENOENT);
  EXPECT_EQ(buses_->open("/dev/spidev0.1"), -ENOENT);
  EXPECT_EQ(buses_->open("/tmp/i2c-1"), -ENOENT);
  unsigned long functions = 0;
  const int fd = buses_->open("/dev/i2c-1");
  fds_.push_back(fd);
  EXPECT_EQ(buses_->ioctl(fd, I2C_FUNCS, &functions), 0);
  EXPECT_TRUE(functions & I2C_FUNC_I2C);
  EXPECT_TRUE(functions & I2C_FUNC_SMBUS_READ_I2C_BLOCK);
  EXPECT_FALSE(functions & I2C_FUNC_SMBUS_READ_BLOCK_DATA) << "an I2C-only adapter, as a Raspberry Pi's";
  EXPECT_EQ(buses_->ioctl(fd + 100, I2C_FUNCS, &functions), -EBADF);
}

TEST_F(SimBusesTest, Bme280AnswersItsChipIdAndFactoryCalibration) {
  const int fd = i2c(0x76);
  EXPECT_EQ(read_byte(fd, 0xD0), 0x60);
  const auto c = calibration(fd);
  EXPECT_EQ(c.t1, 27504);
  EXPECT_EQ(c.t2, 26435);
  EXPECT_EQ(c.p1, 36477);
  EXPECT_EQ(c.p9, 6000);
  EXPECT_EQ(c.h1, 75);
  EXPECT_EQ(c.h2, 362);
  EXPECT_EQ(c.h4, 313) << "dig_H4 shares 0xE5 with dig_H5";
  EXPECT_EQ(c.h5, 50);
  EXPECT_EQ(c.h6, 30);
  // Before any measurement the data registers hold the "skipped" values.
  const auto data = read_block(fd, 0xF7, 8);
  EXPECT_EQ(data, (std::vector<int>{0x80, 0, 0, 0x80, 0, 0, 0x80, 0}));
}

TEST_F(SimBusesTest, Bme280AForcedMeasurementTakesItsTimeAndCompensatesToTheRoomsAir) {
  const int fd = i2c(0x76);
  write_byte(fd, 0xF2, 0x01);  // humidity x1
  write_byte(fd, 0xF4, 0x25);  // temperature x1, pressure x1, forced
  EXPECT_EQ(read_byte(fd, 0xF3) & 0x08, 0x08) << "measuring";
  now_ms_ += 9;
  EXPECT_EQ(read_byte(fd, 0xF3) & 0x08, 0x08) << "x1 of each takes up to 9.3 ms";
  now_ms_ += 1;
  EXPECT_EQ(read_byte(fd, 0xF3) & 0x08, 0) << "done";
  EXPECT_EQ(read_byte(fd, 0xF4), 0x24) << "back in sleep mode";
  const auto r = testing::bme280_compensate(calibration(fd), read_block(fd, 0xF7, 8));
  EXPECT_NEAR(r.celsius, sim::room_temperature_c(now_ms_), 0.02);
  EXPECT_NEAR(r.pascal, sim::room_pressure_pa(now_ms_), 5.0);
  EXPECT_NEAR(r.relative_humidity, sim::room_humidity_rh(now_ms_), 0.05);
  EXPECT_EQ(r.adc_t & 0x0F, 0) << "x1 oversampling: 16-bit resolution";
  // An hour later the air has moved on, slowly.
  now_ms_ += 3'600'000;
  write_byte(fd, 0xF4, 0x25);
  now_ms_ += 10;
  const auto later = testing::bme280_compensate(calibration(fd), read_block(fd, 0xF7, 8));
  EXPECT_NE(later.adc_t, r.adc_t);
  EXPECT_NEAR(later.celsius, sim::room_temperature_c(now_ms_), 0.02);
}

TEST_F(SimBusesTest, Bme280SkipsWhatIsNotOversampledAndResetsOnB6) {
  const int fd = i2c(0x76);
  write_byte(fd, 0xF2, 0x00);  // humidity skipped
  write_byte(fd, 0xF4, 0x41);  // temperature x2, pressure skipped, forced
  now_ms_ += 10;
  const auto data = read_block(fd, 0xF7, 8);
  EXPECT_EQ((std::vector<int>(data.begin(), data.begin() + 3)), (std::vector<int>{0x80, 0, 0}));
  EXPECT_EQ(data[6] << 8 | data[7], 0x8000);
  EXPECT_NE(data[3], 0x80);
  write_byte(fd, 0xE0, 0xB6);
  EXPECT_EQ(read_byte(fd, 0xF4), 0);
  EXPECT_EQ(read_block(fd, 0xFA, 3), (std::vector<int>{0x80, 0, 0}));
  EXPECT_EQ(read_byte(fd, 0xD0), 0x60);
}

TEST_F(SimBusesTest, Bme280InNormalModeMeasuresAgainAfterEachStandby) {
  const int fd = i2c(0x76);
  write_byte(fd, 0xF5, 0xA0);  // standby 1000 ms
  write_byte(fd, 0xF2, 0x01);
  write_byte(fd, 0xF4, 0x27);  // x1, x1, normal
  now_ms_ += 20;
  EXPECT_EQ(read_byte(fd, 0xF3) & 0x08, 0) << "standing by";
  const auto first = testing::bme280_compensate(calibration(fd), read_block(fd, 0xF7, 8));
  EXPECT_NEAR(first.celsius, sim::room_temperature_c(now_ms_), 0.05);
  now_ms_ += 5'000'000;
  const auto later = testing::bme280_compensate(calibration(fd), read_block(fd, 0xF7, 8));
  EXPECT_NEAR(later.celsius, sim::room_temperature_c(now_ms_), 0.05);
  EXPECT_NE(first.adc_t, later.adc_t);
  EXPECT_EQ(read_byte(fd, 0xF4) & 0x03, 0x03) << "normal mode stays";
}

TEST_F(SimBusesTest, EepromReadsBackPageWritesAndWrapsWithinAPage) {
  std::vector<std::uint8_t> none;
  std::vector<std::uint8_t> erased(4);
  ASSERT_EQ(rdwr(0x50, {0x01, 0x00}, erased), 2);
  EXPECT_EQ(erased, (std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF, 0xFF}));
  // Four bytes from 0x011E: the page is 0x0100-0x011F, so the last two wrap to 0x0100.
  ASSERT_EQ(rdwr(0x50, {0x01, 0x1E, 'm', 'c', 'p', 'u'}, none), 1);
  std::vector<std::uint8_t> read(2);
  ASSERT_EQ(rdwr(0x50, {0x01, 0x1E}, read), 2);
  EXPECT_EQ(read, (std::vector<std::uint8_t>{'m', 'c'}));
  ASSERT_EQ(rdwr(0x50, {0x01, 0x00}, read), 2);
  EXPECT_EQ(read, (std::vector<std::uint8_t>{'p', 'u'}));
  // A read without an address goes on from the pointer.
  std::vector<std::uint8_t> next(1);
  ASSERT_EQ(rdwr(0x50, {}, next), 1);
  EXPECT_EQ(next[0], 0xFF);
  // The upper four address bits are not used: 0xF100 is 0x0100.
  ASSERT_EQ(rdwr(0x50, {0xF1, 0x00}, read), 2);
  EXPECT_EQ(read, (std::vector<std::uint8_t>{'p', 'u'}));
}

TEST_F(SimBusesTest, Lm75ReadsTheBoardsTemperatureInHalfDegrees) {
  const int fd = i2c(0x48);
  const auto bytes = read_block(fd, 0x00, 2);
  const double celsius = static_cast<std::int16_t>(bytes[0] << 8 | bytes[1]) / 256.0;
  EXPECT_NEAR(celsius, sim::room_temperature_c(now_ms_) + 2.5, 0.26);
  EXPECT_EQ(bytes[1] & 0x7F, 0);
  EXPECT_EQ(read_block(fd, 0x03, 2), (std::vector<int>{80, 0})) << "overtemperature 80 degC at power-up";
}

TEST_F(SimBusesTest, TheClocksAddressIsTheDriversUnlessForced) {
  const int fd = buses_->open("/dev/i2c-1");
  fds_.push_back(fd);
  EXPECT_EQ(buses_->ioctl(fd, I2C_SLAVE, reinterpret_cast<void*>(std::uintptr_t{0x68})), -EBUSY);
  const int forced = i2c(0x68, true);
  const auto time = read_block(forced, 0x00, 7);
  for (const int bcd : time) EXPECT_LE(bcd & 0x0F, 9) << "BCD digits";
  EXPECT_LE(time[2], 0x23) << "24-hour";
  EXPECT_EQ(read_byte(forced, 0x0E), 0x1C);
  // The kernel's claim shows in the tree as it does in /sys.
  const fs::path device = fs::path(buses_->sysfs_root()) / "bus/i2c/devices/1-0068";
  EXPECT_EQ(fs::read_symlink(device / "driver").filename(), "rtc-ds1307");
}

TEST_F(SimBusesTest, AnAddressNobodyIsAtIsNotAcknowledged) {
  const int fd = i2c(0x30);
  EXPECT_EQ(read_byte(fd, 0x00), -EREMOTEIO);
  i2c_smbus_data data{};
  EXPECT_EQ(smbus(fd, I2C_SMBUS_WRITE, 0, I2C_SMBUS_QUICK, nullptr), -EREMOTEIO);
  const int present = i2c(0x76);
  EXPECT_EQ(smbus(present, I2C_SMBUS_WRITE, 0, I2C_SMBUS_QUICK, nullptr), 0);
  EXPECT_EQ(smbus(present, I2C_SMBUS_READ, 0xD0, I2C_SMBUS_BLOCK_DATA, &data), -EOPNOTSUPP)
      << "the device would send the length: an I2C-only adapter cannot";
  data.block[0] = 33;
  EXPECT_EQ(smbus(present, I2C_SMBUS_READ, 0x88, I2C_SMBUS_I2C_BLOCK_DATA, &data), -EINVAL);
  EXPECT_EQ(buses_->ioctl(present, I2C_SLAVE, reinterpret_cast<void*>(std::uintptr_t{0x80})), -EINVAL);
}

TEST_F(SimBusesTest, Mcp3008ConvertsEachChannelInTheUsualThreeBytes) {
  std::vector<int> codes;
  for (std::uint8_t channel = 0; channel < 8; ++channel) {
    const auto rx = spi({0x01, static_cast<std::uint8_t>(0x80 | channel << 4), 0x00});
    EXPECT_EQ(rx[0], 0);
    EXPECT_EQ(rx[1] & 0xFC, 0) << "floating, then the null bit";
    const int code = (rx[1] & 0x03) << 8 | rx[2];
    EXPECT_EQ(code, sim::SimMcp3008::code_for(sim::SimMcp3008::channel_volts(channel, now_ms_))) << channel;
    codes.push_back(code);
  }
  EXPECT_EQ(codes[3], 512) << "1.65 V of 3.3";
  EXPECT_NEAR(codes[2], 1024 * (0.5 + 0.01 * sim::room_temperature_c(now_ms_)) / 3.3, 1) << "a TMP36";
  EXPECT_EQ(codes[7], 0);
  EXPECT_NE(codes[0], codes[1]);
  // The start bit may come later; the result follows it.
  const auto late = spi({0x00, 0x01, 0xB0, 0x00, 0x00});
  EXPECT_EQ((late[2] & 0x03) << 8 | late[3], codes[3]);
  // Differential CH2-CH3 is below zero: 0.
  const auto pair = spi({0x01, 0x20, 0x00});
  EXPECT_EQ((pair[1] & 0x03) << 8 | pair[2], 0);
}

TEST_F(SimBusesTest, SpidevTakesOnlyEightBitWordsAndBoundsAMessage) {
  const int fd = buses_->open("/dev/spidev0.0");
  fds_.push_back(fd);
  std::uint8_t bits = 16;
  EXPECT_EQ(buses_->ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits), -EINVAL);
  bits = 8;
  EXPECT_EQ(buses_->ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits), 0);
  std::uint8_t mode = SPI_MODE_3;
  EXPECT_EQ(buses_->ioctl(fd, SPI_IOC_WR_MODE, &mode), 0);
  std::uint8_t read_back = 0;
  EXPECT_EQ(buses_->ioctl(fd, SPI_IOC_RD_MODE, &read_back), 0);
  EXPECT_EQ(read_back, SPI_MODE_3);
  std::vector<std::uint8_t> big(5000);
  spi_ioc_transfer t{};
  t.tx_buf = reinterpret_cast<std::uintptr_t>(big.data());
  t.len = static_cast<__u32>(big.size());
  EXPECT_EQ(buses_->ioctl(fd, SPI_IOC_MESSAGE(1), &t), -EMSGSIZE);
  EXPECT_EQ(buses_->ioctl(fd, I2C_FUNCS, &t), -ENOTTY);
}

TEST_F(SimBusesTest, OneWireThermometersAreInTheTreeAndConvertOnEachRead) {
  auto devices = list_onewire({buses_->sysfs_root()});
  ASSERT_TRUE(devices) << devices.error().message;
  ASSERT_EQ(devices->size(), 2u);
  for (const auto& d : *devices) {
    EXPECT_EQ(d.chip, "DS18B20");
    EXPECT_TRUE(d.thermometer);
  }
  auto tank = buses_->onewire_thermometer("28-00000a1b2c3d");
  ASSERT_TRUE(tank) << tank.error().message;
  EXPECT_TRUE((*tank)->slow());
  now_ms_ += 60'000;
  auto value = (*tank)->read();
  ASSERT_TRUE(value) << value.error().message;
  EXPECT_NEAR(*value, sim::tank_temperature_c(now_ms_), 1.0 / 32 + 0.001) << "12 bits, and t= in whole millidegrees";
  EXPECT_EQ(slept_, (std::vector<std::chrono::milliseconds>{std::chrono::milliseconds(750)}));
  std::ifstream file(fs::path(buses_->sysfs_root()) / "bus/w1/devices/28-00000a1b2c3d/w1_slave");
  std::string crc_line;
  std::getline(file, crc_line);
  EXPECT_TRUE(crc_line.ends_with(" YES")) << crc_line;
}

TEST_F(SimBusesTest, AnIdNotOnTheBusIsNamedWithThoseThatAre) {
  auto missing = buses_->onewire_thermometer("28-000000000001");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("devices: 28-00000a1b2c3d, 28-3c01d0754f2a"), std::string::npos)
      << missing.error().message;
}

TEST(SimOneWire, W1SlaveIsTheKernelsTextWithTheScratchpadsCrc) {
  // The reading and CRC a real DS18B20 gives at 23.125 degC.
  EXPECT_EQ(sim::SimOneWire::w1_slave_text(23.125),
            "72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n72 01 4b 46 7f ff 0e 10 57 t=23125\n");
  EXPECT_NE(sim::SimOneWire::w1_slave_text(-10.125).find("t=-10125\n"), std::string::npos);
}

TEST(SimBuses, TheTreeGoesWithTheBuses) {
  std::string root;
  {
    auto buses = SimBuses::make();
    ASSERT_TRUE(buses) << buses.error().message;
    root = (*buses)->sysfs_root();
    EXPECT_TRUE(fs::is_directory(fs::path(root) / "bus/w1/devices/w1_bus_master1"));
  }
  EXPECT_FALSE(fs::exists(root));
  // One a killed mcpud left (its pid no longer runs) goes when the next is made.
  const fs::path abandoned = fs::temp_directory_path() / "mcpud-sim-999999999-test";
  fs::create_directories(abandoned / "bus/w1/devices");
  auto next = SimBuses::make();
  ASSERT_TRUE(next) << next.error().message;
  EXPECT_FALSE(fs::exists(abandoned));
  EXPECT_TRUE(fs::exists((*next)->sysfs_root())) << "its own is kept";
  SimBuses::Options nowhere;
  nowhere.temp_dir = "/nonexistent/mcpud";
  auto refused = SimBuses::make(nowhere);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("/nonexistent/mcpud"), std::string::npos) << refused.error().message;
}

}  // namespace
}  // namespace mcpud::hal
