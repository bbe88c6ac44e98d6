// SPDX-License-Identifier: MIT
// The simulated surroundings: sums of slow sines with unrelated periods, so a
// value never repeats quickly and never jumps.
#include "sim_room.hpp"

#include <cmath>
#include <numbers>

namespace mcpud::hal::sim {
namespace {

// amplitude * sin(2 pi t / period + phase), t and period in milliseconds.
double wave(std::int64_t ms, double amplitude, double period_ms, double phase = 0) {
  return amplitude * std::sin(2 * std::numbers::pi * static_cast<double>(ms) / period_ms + phase);
}

constexpr double kMinute = 60'000;

}  // namespace

double room_temperature_c(std::int64_t ms) {
  return 21.5 + wave(ms, 1.6, 23 * kMinute) + wave(ms, 0.3, 3.7 * kMinute, 1.0) + wave(ms, 0.05, 0.41 * kMinute);
}

double room_humidity_rh(std::int64_t ms) {
  return 45.0 + wave(ms, 5.5, 31 * kMinute, 2.0) + wave(ms, 0.8, 5.3 * kMinute) + wave(ms, 0.1, 0.37 * kMinute);
}

double room_pressure_pa(std::int64_t ms) {
  return 101'325.0 - 200 + wave(ms, 450, 53 * kMinute, 0.5) + wave(ms, 40, 7.1 * kMinute) + wave(ms, 3, 0.53 * kMinute);
}

double tank_temperature_c(std::int64_t ms) {
  return 16.7 + wave(ms, 0.6, 41 * kMinute, 1.5) + wave(ms, 0.08, 2.9 * kMinute);
}

double outdoor_temperature_c(std::int64_t ms) {
  return 10.0 + wave(ms, 2.5, 67 * kMinute, 4.0) + wave(ms, 0.4, 6.1 * kMinute) + wave(ms, 0.06, 0.7 * kMinute);
}

}  // namespace mcpud::hal::sim
