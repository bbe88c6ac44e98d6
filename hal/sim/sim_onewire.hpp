// SPDX-License-Identifier: MIT
// The simulated 1-Wire bus, shown as the kernel's w1 subsystem shows a real
// one (under <tree>/bus/w1/devices: the master w1_bus_master1 and two DS18B20
// thermometers, each with the w1_slave file of w1_therm), and read through
// hal's own 1-Wire code on that tree, as /sys would be. The simulation does
// only what the kernel does inside read() of w1_slave: it waits for the
// conversion (750 ms at the 12 bits a DS18B20 powers up with), reads the
// scratchpad, checks its CRC and leaves the two lines in the file; so
// listing, the id checks, the CRC check and the t= parsing are mcpud's real
// ones, and the wait is a real blocking read that only the sensor worker may
// make. No `temperature` file is shown (kernels before 5.10 had none), so
// the w1_slave path with its CRC is the one taken.
// The thermometers it makes are slow() sensors, read on the sensor worker.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mcpud/hal/sensor.hpp"
#include "mcpud/hal/sim_board.hpp"
#include "sim_sysfs_tree.hpp"

namespace mcpud::hal::sim {

// How a conversion waits; the clock and the wait must be callable from the sensor worker.
using SimSleep = std::function<void(std::chrono::milliseconds)>;

struct SimOneWireState;

class SimOneWire {
 public:
  static constexpr std::chrono::milliseconds kConversion{750};  // DS18B20 at 12 bits (datasheet maximum)

  // Writes the bus's files into `tree`.
  SimOneWire(std::shared_ptr<const SimSysfsTree> tree, SimClock clock, SimSleep sleep);

  // The ids on the bus ("28-00000a1b2c3d", ...).
  std::vector<std::string> ids() const;
  // The thermometer `id` as open_onewire_thermometer finds it in the tree
  // (its errors name the ids there are), converting on every read.
  HalResult<std::unique_ptr<SensorInput>> thermometer(const std::string& id) const;

  // The two lines w1_therm's w1_slave gives for a DS18B20 reading `celsius`
  // at 12 bits: the scratchpad with its CRC and the verdict, then t=.
  static std::string w1_slave_text(double celsius);

 private:
  std::shared_ptr<const SimOneWireState> state_;  // shared with each thermometer: a read may outlive the bus
};

}  // namespace mcpud::hal::sim
