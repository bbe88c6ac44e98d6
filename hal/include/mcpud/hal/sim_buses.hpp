// SPDX-License-Identifier: MIT
// The simulated board's buses, with the parts a Raspberry Pi user attaches:
// - /dev/i2c-1: a BME280 at 0x76, a 24C32 EEPROM at 0x50, an LM75 at 0x48,
//   and a DS3231 clock at 0x68 that the kernel's rtc-ds1307 driver owns;
// - /dev/spidev0.0: an MCP3008 ADC;
// - a 1-Wire bus with two DS18B20 thermometers.
// The I2C and SPI devices answer i2c-dev's and spidev's ioctls (DeviceNodes)
// with the structures and errno values the kernel uses. What the kernel shows
// in sysfs about them (the driver's claim on 0x68, the 1-Wire devices and
// their w1_slave files) is in a sysfs tree of the board's own, read by the
// same code that reads /sys. So the bus tools, their allow lists and their
// errors, and the 1-Wire sensors, run mcpud's real code on it.
// Event loop only, except that the thermometers it opens are slow() sensors
// read on the sensor worker thread.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mcpud/hal/device_nodes.hpp"
#include "mcpud/hal/sensor.hpp"
#include "mcpud/hal/sim_board.hpp"

namespace mcpud::hal {

namespace sim {
class SimI2cBus;
class SimSpidev;
class SimOneWire;
class SimSysfsTree;
}  // namespace sim

class SimBuses final : public DeviceNodes {
 public:
  struct Options {
    SimClock clock;  // milliseconds for the chips; a steady clock from construction when empty
    // How a 1-Wire conversion waits (on the sensor worker); sleeping when empty.
    std::function<void(std::chrono::milliseconds)> sleep;
    std::filesystem::path temp_dir;  // where the sysfs tree is made; the system's temporary directory when empty
  };

  static constexpr unsigned kI2cBus = 1;
  static constexpr unsigned kSpiBus = 0, kSpiChipSelect = 0;

  // The buses, with their sysfs tree made; Kind::Io naming the directory when
  // the tree cannot be made.
  static HalResult<std::unique_ptr<SimBuses>> make(Options options = {});
  ~SimBuses() override;
  SimBuses(const SimBuses&) = delete;
  SimBuses& operator=(const SimBuses&) = delete;

  // /dev/i2c-1 and /dev/spidev0.0 open; any other path is ENOENT.
  int open(const std::string& path) override;
  int ioctl(int fd, unsigned long request, void* arg) override;
  void close(int fd) override;

  // Where the device nodes are ("/dev") and where the sysfs tree is (a
  // temporary directory holding bus/i2c/devices and bus/w1/devices).
  std::string dev_root() const { return "/dev"; }
  std::string sysfs_root() const;
  // The ids of the 1-Wire bus.
  std::vector<std::string> onewire_ids() const;
  // A thermometer of the 1-Wire bus, read from the tree: every read converts
  // (750 ms) as the kernel's does. Errors as open_onewire_thermometer's.
  HalResult<std::unique_ptr<SensorInput>> onewire_thermometer(const std::string& id) const;

 private:
  explicit SimBuses(Options options);  // throws std::filesystem::filesystem_error
  struct Node;
  Node* node(int fd);

  std::shared_ptr<sim::SimSysfsTree> tree_;
  std::unique_ptr<sim::SimI2cBus> i2c_;
  std::unique_ptr<sim::SimSpidev> spi_;
  std::unique_ptr<sim::SimOneWire> onewire_;
  std::map<int, std::unique_ptr<Node>> open_;
  int next_fd_ = 3;
};

}  // namespace mcpud::hal
