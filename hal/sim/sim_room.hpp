// SPDX-License-Identifier: MIT
// What the simulated board's chips measure: a room's air (temperature,
// humidity, pressure), a water tank and the outdoors, as slow smooth
// functions of time, so readings drift as a real room's do and every chip
// that measures the same air agrees.
// Pure functions; any thread.
#pragma once

#include <cstdint>

namespace mcpud::hal::sim {

// At `ms` milliseconds of the board's clock.
double room_temperature_c(std::int64_t ms);     // about 19.5 to 23.5 degC
double room_humidity_rh(std::int64_t ms);       // about 38 to 52 %RH
double room_pressure_pa(std::int64_t ms);       // about 1007 to 1019 hPa
double tank_temperature_c(std::int64_t ms);     // about 16 to 17.5 degC: water changes slowly
double outdoor_temperature_c(std::int64_t ms);  // about 7 to 13 degC

}  // namespace mcpud::hal::sim
