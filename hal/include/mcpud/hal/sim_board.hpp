// SPDX-License-Identifier: MIT
// The simulated board: pins of every type with deterministic behaviour, so mcpud
// runs and is tested without hardware.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "mcpud/hal/pins.hpp"
#include "mcpud/hal/sensor.hpp"

namespace mcpud::hal {

// Milliseconds since the board was created; replaceable so tests control time.
using SimClock = std::function<std::int64_t()>;

struct SimInputSpec {
  enum class Mode { Constant, Square, Loopback };
  Mode mode = Mode::Constant;
  bool level = false;              // Constant: the level; Square: the level at t=0
  std::uint32_t period_ms = 1000;  // Square: full period (high half, low half)
  std::string loopback_from;       // Loopback: name of a simulated digital output
};

struct SimAnalogSpec {
  enum class Waveform { Constant, Sine, Triangle, Noise };
  Waveform waveform = Waveform::Sine;
  double min = 0;  // raw counts
  double max = 4095;
  std::uint32_t period_ms = 10000;  // Sine, Triangle
  std::uint64_t seed = 1;           // Noise: same seed, same sequence
  double scale_mv = 3300.0 / 4095;  // millivolts per raw count
  double offset = 0;                // added to raw before scaling
};

class SimBoard {
 public:
  // Uses a steady clock started now unless a clock is given.
  explicit SimBoard(SimClock clock = {});

  // `name` lets inputs be wired to this output (Loopback).
  std::unique_ptr<DigitalOutput> digital_output(const std::string& name, bool initial_level);
  // Fails (NotFound) for a loopback from an output this board has not created.
  HalResult<std::unique_ptr<DigitalInput>> digital_input(const SimInputSpec& spec);
  std::unique_ptr<PwmOutput> pwm_output(std::uint32_t frequency_hz);
  std::unique_ptr<AnalogInput> analog_input(const SimAnalogSpec& spec);
  // A sensor whose waveform runs from spec.min to spec.max in the quantity's
  // unit (scale_mv and offset are not used), to a thousandth of it.
  std::unique_ptr<SensorInput> sensor_input(const SimAnalogSpec& spec, Quantity quantity);

 private:
  SimClock clock_;
  std::map<std::string, std::shared_ptr<bool>, std::less<>> output_levels_;
};

}  // namespace mcpud::hal
