// SPDX-License-Identifier: MIT
// A Bosch BME280 (temperature, humidity, pressure) on I2C, register for
// register as its datasheet (BST-BME280-DS002) describes it: chip id 0x60 at
// 0xD0, factory calibration at 0x88-0xA1 and 0xE1-0xE7, reset (0xE0),
// ctrl_hum (0xF2, latched by the next ctrl_meas write), status (0xF3),
// ctrl_meas (0xF4: oversampling and sleep, forced or normal mode), config
// (0xF5) and the raw measurement at 0xF7-0xFE, which compensate with Bosch's
// formulas to the simulated room's air. A measurement takes the datasheet's
// maximum time for its oversampling, with `measuring` set meanwhile; the IIR
// filter is not simulated (the room's air changes too slowly for it to show).
// Event loop only.
#pragma once

#include <array>
#include <cstdint>

#include "i2c_target.hpp"
#include "mcpud/hal/sim_board.hpp"

namespace mcpud::hal::sim {

class SimBme280 final : public I2cTarget {
 public:
  explicit SimBme280(SimClock clock);

  // Writes are (register, value) pairs after the register pointer, as the
  // chip takes them; reads go on from the pointer.
  bool write(std::span<const std::uint8_t> bytes) override;
  void read(std::span<std::uint8_t> out) override;

 private:
  enum class Mode { Sleep, Forced, Normal };
  void reset();
  void write_register(std::uint8_t reg, std::uint8_t value);
  std::uint8_t read_register(std::uint8_t reg);
  // Brings the measurement state up to the clock: a forced measurement that
  // ended is in the data registers and the chip back asleep; in normal mode
  // the last finished one of the cycle is.
  void advance();
  void start_measuring(std::int64_t now);
  // The raw values of a measurement finishing at `ms` into 0xF7-0xFE.
  void store_measurement(std::int64_t ms);
  double measurement_ms() const;
  double standby_ms() const;

  SimClock clock_;
  std::array<std::uint8_t, 256> regs_{};
  std::uint8_t pointer_ = 0;
  Mode mode_ = Mode::Sleep;
  std::uint8_t osrs_h_ = 0;         // ctrl_hum as the last ctrl_meas write latched it
  std::int64_t started_ms_ = 0;     // the running (forced) or first (normal) measurement's start
  bool forced_pending_ = false;     // a forced measurement not yet in the data registers
  std::int64_t stored_cycle_ = -1;  // normal mode: the last cycle whose result is stored
};

}  // namespace mcpud::hal::sim
