// SPDX-License-Identifier: MIT
// The simulated board's buses: which chip sits where, the device nodes and
// the sysfs tree that describes them.
#include "mcpud/hal/sim_buses.hpp"

#include <cerrno>
#include <thread>

#include "bme280.hpp"
#include "ds3231.hpp"
#include "eeprom_24c32.hpp"
#include "lm75.hpp"
#include "mcp3008.hpp"
#include "sim_i2c_bus.hpp"
#include "sim_onewire.hpp"
#include "sim_spidev.hpp"
#include "sim_sysfs_tree.hpp"

namespace mcpud::hal {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxOpen = 64;  // descriptors open at once; the tools open one per call

constexpr std::uint8_t kBme280 = 0x76, kEeprom = 0x50, kLm75 = 0x48, kRtc = 0x68;
constexpr const char* kRtcDriver = "rtc-ds1307";

SimClock steady_clock_from_now() {
  const auto start = std::chrono::steady_clock::now();
  return [start] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  };
}

// The I2C adapter and the device the kernel declared at the clock's address,
// its driver bound, as /sys/bus/i2c shows them on a Pi with
// dtoverlay=i2c-rtc,ds3231.
void describe_i2c(const sim::SimSysfsTree& tree) {
  tree.write("bus/i2c/devices/i2c-1/name", "bcm2835 (i2c@7e804000)\n");
  tree.make_directory(std::string("bus/i2c/drivers/") + kRtcDriver);
  tree.write("bus/i2c/devices/1-0068/name", "ds3231\n");
  tree.link("bus/i2c/devices/1-0068/driver", std::string("../../drivers/") + kRtcDriver);
}

}  // namespace

struct SimBuses::Node {
  enum class Kind { I2c, Spi } kind;
  std::uint16_t address = 0;  // I2C: what I2C_SLAVE selected, per descriptor as in i2c-dev
};

SimBuses::SimBuses(Options options) {
  if (!options.clock) options.clock = steady_clock_from_now();
  if (!options.sleep) options.sleep = [](std::chrono::milliseconds wait) { std::this_thread::sleep_for(wait); };
  tree_ = std::make_shared<sim::SimSysfsTree>(options.temp_dir.empty() ? fs::temp_directory_path() : options.temp_dir);
  i2c_ = std::make_unique<sim::SimI2cBus>();
  i2c_->attach(kBme280, std::make_unique<sim::SimBme280>(options.clock));
  i2c_->attach(kEeprom, std::make_unique<sim::Sim24c32>());
  i2c_->attach(kLm75, std::make_unique<sim::SimLm75>(options.clock));
  i2c_->attach(kRtc, std::make_unique<sim::SimDs3231>(options.clock), true);
  describe_i2c(*tree_);
  spi_ = std::make_unique<sim::SimSpidev>(std::make_unique<sim::SimMcp3008>(options.clock));
  onewire_ = std::make_unique<sim::SimOneWire>(tree_, options.clock, options.sleep);
}

SimBuses::~SimBuses() = default;

HalResult<std::unique_ptr<SimBuses>> SimBuses::make(Options options) {
  try {
    return std::unique_ptr<SimBuses>(new SimBuses(std::move(options)));
  } catch (const fs::filesystem_error& e) {
    return std::unexpected(HalError{HalError::Kind::Io, std::string("the simulated board's sysfs tree: ") + e.what()});
  }
}

std::string SimBuses::sysfs_root() const { return tree_->root().string(); }

int SimBuses::open(const std::string& path) {
  const std::string i2c = dev_root() + "/i2c-" + std::to_string(kI2cBus);
  const std::string spi = dev_root() + "/spidev" + std::to_string(kSpiBus) + "." + std::to_string(kSpiChipSelect);
  if (path != i2c && path != spi) return -ENOENT;
  if (open_.size() >= kMaxOpen) return -EMFILE;
  const int fd = next_fd_++;
  open_[fd] = std::make_unique<Node>(Node{path == i2c ? Node::Kind::I2c : Node::Kind::Spi});
  return fd;
}

SimBuses::Node* SimBuses::node(int fd) {
  const auto it = open_.find(fd);
  return it == open_.end() ? nullptr : it->second.get();
}

int SimBuses::ioctl(int fd, unsigned long request, void* arg) {
  auto* n = node(fd);
  if (!n) return -EBADF;
  return n->kind == Node::Kind::I2c ? i2c_->ioctl(n->address, request, arg) : spi_->ioctl(request, arg);
}

void SimBuses::close(int fd) { open_.erase(fd); }

std::vector<std::string> SimBuses::onewire_ids() const { return onewire_->ids(); }

HalResult<std::unique_ptr<SensorInput>> SimBuses::onewire_thermometer(const std::string& id) const {
  return onewire_->thermometer(id);
}

}  // namespace mcpud::hal
