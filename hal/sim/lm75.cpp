// SPDX-License-Identifier: MIT
// The LM75's pointer and registers.
#include "lm75.hpp"

#include <cmath>

#include "sim_room.hpp"

namespace mcpud::hal::sim {
namespace {

constexpr double kAboveRoom = 2.5;  // degC: it sits beside the board's SoC

}  // namespace

bool SimLm75::write(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return true;
  pointer_ = bytes[0] & 0x03;
  if (bytes.size() < 2) return true;
  if (pointer_ == 1) {
    config_ = bytes[1];
  } else if (bytes.size() >= 3 && pointer_ >= 2) {
    const auto value = static_cast<std::uint16_t>((bytes[1] << 8 | bytes[2]) & 0xFF80);
    (pointer_ == 2 ? hysteresis_ : overtemperature_) = value;
  }
  return true;  // the temperature register takes no writes, but the chip acknowledges them
}

std::array<std::uint8_t, 2> SimLm75::register_bytes() const {
  std::uint16_t value = 0;
  switch (pointer_) {
    case 0: {
      const auto half_degrees = static_cast<std::int16_t>(std::lround((room_temperature_c(clock_()) + kAboveRoom) * 2));
      value = static_cast<std::uint16_t>(half_degrees << 7);
      break;
    }
    case 1:
      return {config_, config_};
    case 2:
      value = hysteresis_;
      break;
    default:
      value = overtemperature_;
      break;
  }
  return {static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value & 0xFF)};
}

void SimLm75::read(std::span<std::uint8_t> out) {
  // A read longer than the register repeats it, as the chip's does.
  const auto bytes = register_bytes();
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = bytes[i % 2];
}

}  // namespace mcpud::hal::sim
