// SPDX-License-Identifier: MIT
// An MCP3008 (Microchip, 8-channel 10-bit ADC) on SPI, bit for bit as its
// datasheet (DS21295) describes the exchange: while chip select is low it
// waits for a start bit, takes SGL/DIFF and D2-D0 (single-ended channel, or
// a differential pair), samples, sends a null bit and the result MSB first,
// then LSB first, then zeros. With the usual three bytes (0x01, 0x80 |
// channel << 4, 0x00) the result is the low two bits of the second byte
// read and the whole third byte. Reference 3.3 V; what the simulated board
// wires to each channel is in mcp3008.cpp.
// Event loop only.
#pragma once

#include <cstdint>

#include "mcpud/hal/sim_board.hpp"
#include "spi_target.hpp"

namespace mcpud::hal::sim {

class SimMcp3008 final : public SpiTarget {
 public:
  static constexpr double kReferenceVolts = 3.3;

  explicit SimMcp3008(SimClock clock) : clock_(std::move(clock)) {}
  void select() override;
  void exchange(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx) override;

  // The volts on `channel` (0-7) at `ms`, and the code a conversion gives for them.
  static double channel_volts(unsigned channel, std::int64_t ms);
  static std::uint16_t code_for(double volts);

 private:
  // One clock: the bit sent in, the bit the chip drives out.
  bool clock(bool in);
  std::uint16_t convert() const;

  SimClock clock_;
  int clocks_ = -1;           // clocks since the start bit; -1 before it
  std::uint8_t config_ = 0;   // SGL/DIFF, D2, D1, D0 as they came in
  std::uint16_t result_ = 0;  // sampled after D0
};

}  // namespace mcpud::hal::sim
