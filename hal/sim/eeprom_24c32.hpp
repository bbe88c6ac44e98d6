// SPDX-License-Identifier: MIT
// A 24C32 serial EEPROM (4 KiB, Microchip 24LC32A and kin): a 16-bit address
// pointer written first (its upper four bits unused), sequential reads from
// the pointer on (wrapping at the end of the array), and page writes of up to
// 32 bytes that wrap within their page and are committed at STOP, as the
// chip's write cycle starts there. The write cycle itself (about 5 ms during
// which a real one does not acknowledge) is not simulated: a read right after
// a write finds the new data. Erased bytes read 0xFF.
// Event loop only.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "i2c_target.hpp"

namespace mcpud::hal::sim {

class Sim24c32 final : public I2cTarget {
 public:
  static constexpr std::size_t kBytes = 4096;
  static constexpr std::size_t kPageBytes = 32;

  Sim24c32() { memory_.fill(0xFF); }
  bool write(std::span<const std::uint8_t> bytes) override;
  void read(std::span<std::uint8_t> out) override;
  void stop() override;

 private:
  std::array<std::uint8_t, kBytes> memory_{};
  std::uint16_t pointer_ = 0;
  std::vector<std::pair<std::uint16_t, std::uint8_t>> pending_;  // a page write until STOP
};

}  // namespace mcpud::hal::sim
