// SPDX-License-Identifier: MIT
// The board-access interfaces every backend (sim, libgpiod, IIO, sysfs PWM)
// implements: one small class per kind of pin. No protocol code lives here.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace mcpud::hal {

enum class PinType { DigitalOutput, DigitalInput, PwmOutput, AdcInput, SensorInput };

// "digital_output", ... as the MCP/U pin registry spells them.
std::string_view pin_type_name(PinType type);
bool parse_pin_type(std::string_view name, PinType& out);

struct HalError {
  enum class Kind { NotFound, InvalidArgument, Io, Disconnected };
  Kind kind = Kind::Io;
  std::string message;
};

template <class T>
using HalResult = std::expected<T, HalError>;

class DigitalOutput {
 public:
  virtual ~DigitalOutput() = default;
  virtual HalResult<void> write(bool level) = 0;
  virtual HalResult<bool> read() = 0;  // the level last driven (or read back)
};

class DigitalInput {
 public:
  virtual ~DigitalInput() = default;
  virtual HalResult<bool> read() = 0;
};

struct PwmState {
  double duty = 0;  // fraction of the period, 0.0 .. 1.0
  std::uint32_t frequency_hz = 0;
};

class PwmOutput {
 public:
  virtual ~PwmOutput() = default;
  virtual HalResult<void> set(PwmState state) = 0;
  virtual PwmState state() const = 0;
};

struct AdcReading {
  std::int64_t raw = 0;
  double millivolts = 0;  // (raw + offset) * scale, as IIO defines it
};

class AnalogInput {
 public:
  virtual ~AnalogInput() = default;
  virtual HalResult<AdcReading> read() = 0;
};

}  // namespace mcpud::hal
