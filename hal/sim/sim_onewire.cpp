// SPDX-License-Identifier: MIT
// The simulated 1-Wire bus in its sysfs tree, and thermometers that convert.
#include "sim_onewire.hpp"

#include <array>
#include <cmath>
#include <cstdio>

#include "mcpud/hal/onewire.hpp"
#include "sim_room.hpp"

namespace mcpud::hal::sim {
namespace {

struct Thermometer {
  const char* id;
  double (*celsius)(std::int64_t ms);
};

// The first id is the one docs/hardware.md's walkthrough uses.
constexpr std::array<Thermometer, 2> kThermometers{{
    {"28-00000a1b2c3d", tank_temperature_c},
    {"28-3c01d0754f2a", outdoor_temperature_c},
}};

std::string device_dir(const std::string& id) { return "bus/w1/devices/" + id; }

// Dallas/Maxim CRC-8 (x^8 + x^5 + x^4 + 1), as w1_calc_crc8 computes it.
std::uint8_t crc8(const std::uint8_t* bytes, std::size_t count) {
  std::uint8_t crc = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t byte = bytes[i];
    for (int bit = 0; bit < 8; ++bit) {
      const bool mix = (crc ^ byte) & 0x01;
      crc >>= 1;
      if (mix) crc ^= 0x8C;
      byte >>= 1;
    }
  }
  return crc;
}

}  // namespace

struct SimOneWireState {
  std::shared_ptr<const SimSysfsTree> tree;
  SimClock clock;
  SimSleep sleep;
};

namespace {

// A conversion inside the read, then the kernel's text, then mcpud's reading of it.
class ConvertingThermometer final : public SensorInput {
 public:
  ConvertingThermometer(std::shared_ptr<const SimOneWireState> bus, Thermometer device,
                        std::unique_ptr<SensorInput> files)
      : bus_(std::move(bus)), device_(device), files_(std::move(files)) {}

  HalResult<double> read() override {
    bus_->sleep(SimOneWire::kConversion);
    try {
      bus_->tree->write(device_dir(device_.id) + "/w1_slave",
                        SimOneWire::w1_slave_text(device_.celsius(bus_->clock())));
    } catch (const std::exception& e) {
      return std::unexpected(HalError{HalError::Kind::Io, std::string("simulated 1-Wire bus: ") + e.what()});
    }
    return files_->read();
  }
  const Quantity& quantity() const override { return files_->quantity(); }
  bool slow() const override { return true; }

 private:
  std::shared_ptr<const SimOneWireState> bus_;
  Thermometer device_;
  std::unique_ptr<SensorInput> files_;
};

}  // namespace

SimOneWire::SimOneWire(std::shared_ptr<const SimSysfsTree> tree, SimClock clock, SimSleep sleep)
    : state_(std::make_shared<const SimOneWireState>(
          SimOneWireState{std::move(tree), std::move(clock), std::move(sleep)})) {
  const auto& t = *state_->tree;
  std::string slaves;
  for (const auto& device : kThermometers) {
    const std::string dir = device_dir(device.id);
    t.write(dir + "/name", std::string(device.id) + "\n");
    t.write(dir + "/resolution", "12\n");
    t.write(dir + "/conv_time", std::to_string(kConversion.count()) + "\n");
    // What the last conversion left, until a read converts again.
    t.write(dir + "/w1_slave", w1_slave_text(device.celsius(state_->clock())));
    slaves += std::string(device.id) + "\n";
  }
  t.write("bus/w1/devices/w1_bus_master1/w1_master_name", "w1_bus_master1\n");
  t.write("bus/w1/devices/w1_bus_master1/w1_master_slaves", slaves);
  t.write("bus/w1/devices/w1_bus_master1/w1_master_slave_count", std::to_string(kThermometers.size()) + "\n");
}

std::vector<std::string> SimOneWire::ids() const {
  std::vector<std::string> out;
  for (const auto& device : kThermometers) out.emplace_back(device.id);
  return out;
}

HalResult<std::unique_ptr<SensorInput>> SimOneWire::thermometer(const std::string& id) const {
  auto files = open_onewire_thermometer({state_->tree->root().string()}, id);
  if (!files) return std::unexpected(files.error());
  for (const auto& device : kThermometers) {
    if (id != device.id) continue;
    return std::make_unique<ConvertingThermometer>(state_, device, std::move(*files));
  }
  // A device of the tree that is not one of the bus's: cannot happen while
  // only this class writes the tree, but never read one without a conversion.
  return std::unexpected(HalError{HalError::Kind::NotFound, "1-Wire device " + id + " is not simulated"});
}

std::string SimOneWire::w1_slave_text(double celsius) {
  const auto raw = static_cast<std::int16_t>(std::lround(celsius * 16));  // 12 bits: 1/16 degC
  std::array<std::uint8_t, 9> scratchpad{static_cast<std::uint8_t>(raw & 0xFF),
                                         static_cast<std::uint8_t>((raw >> 8) & 0xFF),
                                         0x4B,  // TH and TL alarms at power-up: 75 and 70 degC
                                         0x46,
                                         0x7F,  // configuration: 12 bits
                                         0xFF,
                                         static_cast<std::uint8_t>(0x10 - (raw & 0x0F)),
                                         0x10,
                                         0};
  scratchpad[8] = crc8(scratchpad.data(), 8);
  std::string bytes;
  char hex[4];
  for (const auto b : scratchpad) {
    std::snprintf(hex, sizeof hex, "%02x ", b);
    bytes += hex;
  }
  char crc[8];
  std::snprintf(crc, sizeof crc, "%02x", scratchpad[8]);
  return bytes + ": crc=" + crc + " YES\n" + bytes + "t=" + std::to_string(raw * 1000 / 16) + "\n";
}

}  // namespace mcpud::hal::sim
