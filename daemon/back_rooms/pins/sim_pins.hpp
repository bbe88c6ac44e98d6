// SPDX-License-Identifier: MIT
// Pins on the built-in simulated board.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include "board_kinds.hpp"
#include "mcpud/hal/sim_board.hpp"

namespace mcpud::pins {

class SimPinFactory final : public PinFactory {
 public:
  // Loopback inputs need their output attached first (PinTable attaches outputs first).
  Result<void> attach(BoardPin& pin) override;

 private:
  hal::SimBoard board_;
};

}  // namespace mcpud::pins
