// SPDX-License-Identifier: MIT
// One simulated SPI chip select and what spidev makes of it: mode, bit order,
// word size and speed (kept by the device across opens, as spidev keeps
// them), SPI_IOC_MESSAGE(N) with chip select held across a message unless a
// transfer asks for cs_change, and a controller such as the Raspberry Pi's
// spi-bcm2835 (8-bit words only). Errors are the errno values the kernel gives.
// Event loop only.
#pragma once

#include <cstdint>
#include <memory>

#include "spi_target.hpp"

namespace mcpud::hal::sim {

class SimSpidev {
 public:
  // spidev's buffer (its `bufsiz` parameter): the most one message moves.
  static constexpr std::uint32_t kBufferBytes = 4096;

  explicit SimSpidev(std::unique_ptr<SpiTarget> chip) : chip_(std::move(chip)) {}
  // One spidev ioctl: >= 0, or -errno.
  int ioctl(unsigned long request, void* arg);

 private:
  int message(unsigned long request, void* arg);

  std::unique_ptr<SpiTarget> chip_;
  std::uint32_t mode_ = 0;
  std::uint8_t lsb_first_ = 0;
  std::uint8_t bits_per_word_ = 8;
  std::uint32_t max_speed_hz_ = 125'000'000;  // spi-bcm2835's default for a device without one
};

}  // namespace mcpud::hal::sim
