// SPDX-License-Identifier: MIT
// An emulated I2C chip as the controller sees it: the messages of a transfer
// addressed to it, and the STOP that ends the transfer.
// Used by one thread at a time (the simulated board's: the event loop).
#pragma once

#include <cstdint>
#include <span>

namespace mcpud::hal::sim {

class I2cTarget {
 public:
  virtual ~I2cTarget() = default;
  // A write message: the bytes after the address byte. False when the chip
  // does not acknowledge one of them (the controller then stops).
  virtual bool write(std::span<const std::uint8_t> bytes) = 0;
  // A read message: the chip's next bytes (it has acknowledged its address).
  virtual void read(std::span<std::uint8_t> out) = 0;
  // The STOP ending a transfer the chip took part in.
  virtual void stop() {}
};

}  // namespace mcpud::hal::sim
