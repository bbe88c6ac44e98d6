// SPDX-License-Identifier: MIT
// The MCP3008's serial exchange, and the simulated board's analog inputs.
#include "mcp3008.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim_room.hpp"

namespace mcpud::hal::sim {
namespace {

constexpr int kConfigBits = 4;    // SGL/DIFF, D2, D1, D0 after the start bit
constexpr int kNullBitClock = 6;  // one clock to finish sampling, then the null bit
constexpr int kResultBits = 10;

double sine(std::int64_t ms, double period_ms) {
  return std::sin(2 * std::numbers::pi * static_cast<double>(ms) / period_ms);
}

}  // namespace

double SimMcp3008::channel_volts(unsigned channel, std::int64_t ms) {
  switch (channel) {
    case 0:  // a potentiometer someone turns slowly back and forth
      return 0.2 + 2.9 * std::abs(std::fmod(static_cast<double>(ms) / 40'000.0, 2.0) - 1.0);
    case 1:  // a light-dependent resistor divider: daylight through a window
      return 1.8 + 0.8 * sine(ms, 60'000);
    case 2:  // a TMP36 temperature sensor: 0.5 V at 0 degC, 10 mV per degC
      return 0.5 + 0.01 * room_temperature_c(ms);
    case 3:  // a 2:1 divider from 3.3 V
      return 1.65;
    default:  // tied to ground
      return 0;
  }
}

std::uint16_t SimMcp3008::code_for(double volts) {
  const double code = std::floor(1024 * volts / kReferenceVolts);
  return static_cast<std::uint16_t>(std::clamp(code, 0.0, 1023.0));
}

void SimMcp3008::select() {
  clocks_ = -1;
  config_ = 0;
}

void SimMcp3008::exchange(std::span<const std::uint8_t> tx, std::span<std::uint8_t> rx) {
  for (std::size_t i = 0; i < tx.size(); ++i) {
    std::uint8_t out = 0;
    for (int bit = 7; bit >= 0; --bit) {
      if (clock((tx[i] >> bit) & 1)) out |= static_cast<std::uint8_t>(1 << bit);
    }
    rx[i] = out;
  }
}

bool SimMcp3008::clock(bool in) {
  if (clocks_ < 0) {
    if (in) clocks_ = 0;  // leading zeros are ignored until the start bit
    return false;         // the output floats until the result: read as 0
  }
  ++clocks_;
  if (clocks_ <= kConfigBits) {
    config_ = static_cast<std::uint8_t>(config_ << 1 | (in ? 1 : 0));
    if (clocks_ == kConfigBits) result_ = convert();
    return false;
  }
  const int msb_first = clocks_ - kNullBitClock;  // 0 is the null bit, 1-10 are B9..B0
  if (msb_first >= 1 && msb_first <= kResultBits) return (result_ >> (kResultBits - msb_first)) & 1;
  const int lsb_first = msb_first - kResultBits;  // then B1..B9
  if (lsb_first >= 1 && lsb_first < kResultBits) return (result_ >> lsb_first) & 1;
  return false;
}

std::uint16_t SimMcp3008::convert() const {
  const bool single = config_ & 0x08;
  const unsigned select = config_ & 0x07;
  const auto ms = clock_();
  if (single) return code_for(channel_volts(select, ms));
  // Differential: pairs (0,1), (2,3), ...; the odd select bit swaps IN+ and IN-.
  const unsigned pair = select & 0x06;
  const bool swapped = select & 0x01;
  const double plus = channel_volts(swapped ? pair + 1 : pair, ms);
  const double minus = channel_volts(swapped ? pair : pair + 1, ms);
  return code_for(plus - minus);
}

}  // namespace mcpud::hal::sim
