// SPDX-License-Identifier: MIT
// An LM75 temperature sensor (NXP LM75A, TI LM75B and kin) on I2C: a pointer
// byte selecting temperature (0x00, two bytes, 0.5 degC steps in the upper
// nine bits), configuration (0x01), hysteresis (0x02) and overtemperature
// (0x03, two bytes each, 75 and 80 degC at power-up); it converts on its own,
// so it is read without writing anything but the pointer. It sits on the
// board, a little warmer than the room.
// Event loop only.
#pragma once

#include <array>
#include <cstdint>

#include "i2c_target.hpp"
#include "mcpud/hal/sim_board.hpp"

namespace mcpud::hal::sim {

class SimLm75 final : public I2cTarget {
 public:
  explicit SimLm75(SimClock clock) : clock_(std::move(clock)) {}
  bool write(std::span<const std::uint8_t> bytes) override;
  void read(std::span<std::uint8_t> out) override;

 private:
  // The pointed register's bytes, most significant first.
  std::array<std::uint8_t, 2> register_bytes() const;

  SimClock clock_;
  std::uint8_t pointer_ = 0;
  std::uint8_t config_ = 0;
  std::uint16_t hysteresis_ = 75 << 8, overtemperature_ = 80 << 8;
};

}  // namespace mcpud::hal::sim
