// SPDX-License-Identifier: MIT
// An emulated SPI chip as the controller sees it: chip select asserted, bytes
// exchanged full duplex (most significant bit first), chip select released.
// Used by one thread at a time (the simulated board's: the event loop).
#pragma once

#include <cstdint>
#include <span>

namespace mcpud::hal::sim {

class SpiTarget {
 public:
  virtual ~SpiTarget() = default;
  virtual void select() = 0;
  // `rx` is as long as `tx`: what the chip shifted out while `tx` went in.
  virtual void exchange(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx) = 0;
  virtual void deselect() {}
};

}  // namespace mcpud::hal::sim
