// SPDX-License-Identifier: MIT
// Pins on the built-in simulated board.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include "board_kinds.hpp"
#include "mcpud/hal/sim_board.hpp"
#include "mcpud/hal/sim_buses.hpp"

namespace mcpud::pins {

class SimPinFactory final : public PinFactory {
 public:
  // Borrows `buses` (nullable: a board without its 1-Wire bus), for 1-Wire thermometers.
  explicit SimPinFactory(const hal::SimBuses* buses) : buses_(buses) {}
  // Loopback inputs need their output attached first (PinTable attaches outputs first).
  Result<void> attach(BoardPin& pin) override;

 private:
  // A sensor_input: a waveform, or a thermometer on the 1-Wire bus.
  Result<void> attach_sensor(BoardPin& pin);

  hal::SimBoard board_;
  const hal::SimBuses* buses_;
};

}  // namespace mcpud::pins
