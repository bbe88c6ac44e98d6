// SPDX-License-Identifier: MIT
// A DS3231 real-time clock on I2C, the one a Raspberry Pi gets with
// dtoverlay=i2c-rtc,ds3231, whose kernel driver (rtc-ds1307) then owns its
// address: time and date in BCD at 0x00-0x06 (24-hour, the host's UTC time),
// alarms 0x07-0x0D, control 0x0E, status 0x0F, aging 0x10 and the
// temperature at 0x11-0x12 (0.25 degC steps), read from a pointer that wraps
// after 0x12. The driver sets the time, so writes to the time registers are
// kept out; the others take them.
// Event loop only.
#pragma once

#include <array>
#include <cstdint>

#include "i2c_target.hpp"
#include "mcpud/hal/sim_board.hpp"

namespace mcpud::hal::sim {

class SimDs3231 final : public I2cTarget {
 public:
  static constexpr std::size_t kRegisters = 0x13;

  explicit SimDs3231(SimClock clock);
  bool write(std::span<const std::uint8_t> bytes) override;
  void read(std::span<std::uint8_t> out) override;

 private:
  std::uint8_t register_value(std::uint8_t reg) const;

  SimClock clock_;
  std::array<std::uint8_t, kRegisters> regs_{};
  std::uint8_t pointer_ = 0;
};

}  // namespace mcpud::hal::sim
