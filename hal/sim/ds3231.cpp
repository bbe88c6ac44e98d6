// SPDX-License-Identifier: MIT
// The DS3231's registers: the host's time in BCD, and the room's temperature.
#include "ds3231.hpp"

#include <chrono>
#include <cmath>

#include "sim_room.hpp"

namespace mcpud::hal::sim {
namespace {

constexpr std::uint8_t kRegControl = 0x0E, kRegTemperature = 0x11, kFirstAfterTime = 0x07;

std::uint8_t bcd(unsigned value) { return static_cast<std::uint8_t>((value / 10) << 4 | (value % 10)); }

// Seconds, minutes, hours, weekday (1 = Monday), date, month, year (of the century).
std::array<std::uint8_t, 7> time_registers() {
  using namespace std::chrono;
  const auto now = floor<seconds>(system_clock::now());
  const auto days = floor<std::chrono::days>(now);
  const year_month_day date{days};
  const hh_mm_ss time{now - days};
  const weekday day{days};
  return {bcd(static_cast<unsigned>(time.seconds().count())),
          bcd(static_cast<unsigned>(time.minutes().count())),
          bcd(static_cast<unsigned>(time.hours().count())),
          bcd(day.iso_encoding()),
          bcd(static_cast<unsigned>(date.day())),
          bcd(static_cast<unsigned>(date.month())),
          bcd(static_cast<unsigned>(static_cast<int>(date.year()) % 100))};
}

}  // namespace

SimDs3231::SimDs3231(SimClock clock) : clock_(std::move(clock)) {
  regs_[kRegControl] = 0x1C;  // its power-up control: interrupts on, square wave off
}

bool SimDs3231::write(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return true;
  pointer_ = bytes[0] % kRegisters;
  for (std::size_t i = 1; i < bytes.size(); ++i) {
    if (pointer_ >= kFirstAfterTime && pointer_ < kRegTemperature) regs_[pointer_] = bytes[i];
    pointer_ = static_cast<std::uint8_t>((pointer_ + 1) % kRegisters);
  }
  return true;
}

std::uint8_t SimDs3231::register_value(std::uint8_t reg) const {
  if (reg < kFirstAfterTime) return time_registers()[reg];
  if (reg < kRegTemperature) return regs_[reg];
  const auto quarters = static_cast<int>(std::lround(room_temperature_c(clock_()) * 4));
  if (reg == kRegTemperature) return static_cast<std::uint8_t>(quarters >> 2);
  return static_cast<std::uint8_t>((quarters & 0x03) << 6);
}

void SimDs3231::read(std::span<std::uint8_t> out) {
  for (auto& byte : out) {
    byte = register_value(pointer_);
    pointer_ = static_cast<std::uint8_t>((pointer_ + 1) % kRegisters);
  }
}

}  // namespace mcpud::hal::sim
