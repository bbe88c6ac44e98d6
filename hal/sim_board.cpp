// SPDX-License-Identifier: MIT
// Simulated pins: remembered outputs, scripted inputs, waveform ADC channels.
#include "mcpud/hal/sim_board.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mcpud::hal {
namespace {

class SimDigitalOutput final : public DigitalOutput {
 public:
  explicit SimDigitalOutput(std::shared_ptr<bool> level) : level_(std::move(level)) {}
  HalResult<void> write(bool level) override {
    *level_ = level;
    return {};
  }
  HalResult<bool> read() override { return *level_; }

 private:
  std::shared_ptr<bool> level_;  // shared with inputs wired to this output
};

class SimDigitalInput final : public DigitalInput {
 public:
  SimDigitalInput(SimInputSpec spec, SimClock clock, std::shared_ptr<const bool> source)
      : spec_(std::move(spec)), clock_(std::move(clock)), source_(std::move(source)) {}

  HalResult<bool> read() override {
    switch (spec_.mode) {
      case SimInputSpec::Mode::Constant:
        return spec_.level;
      case SimInputSpec::Mode::Loopback:
        return *source_;
      case SimInputSpec::Mode::Square: {
        const auto period = std::max<std::int64_t>(2, spec_.period_ms);
        const bool first_half = (clock_() % period) < period / 2;
        return first_half ? spec_.level : !spec_.level;
      }
    }
    return false;
  }

 private:
  SimInputSpec spec_;
  SimClock clock_;
  std::shared_ptr<const bool> source_;
};

class SimPwmOutput final : public PwmOutput {
 public:
  explicit SimPwmOutput(std::uint32_t frequency_hz) : state_{0, frequency_hz} {}
  HalResult<void> set(PwmState state) override {
    if (!(state.duty >= 0 && state.duty <= 1))
      return std::unexpected(HalError{HalError::Kind::InvalidArgument, "duty out of range"});
    if (state.frequency_hz == 0) state.frequency_hz = state_.frequency_hz;
    state_ = state;
    return {};
  }
  PwmState state() const override { return state_; }

 private:
  PwmState state_;
};

// splitmix64 finaliser: neighbouring seeds give unrelated xorshift states,
// and the state is never zero (xorshift would stay at zero forever).
std::uint64_t mix_seed(std::uint64_t seed) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return z == 0 ? 0x9e3779b97f4a7c15ULL : z;
}

class SimAnalogInput final : public AnalogInput {
 public:
  SimAnalogInput(SimAnalogSpec spec, SimClock clock)
      : spec_(spec), clock_(std::move(clock)), noise_state_(mix_seed(spec.seed)) {}

  HalResult<AdcReading> read() override {
    const double raw = std::round(spec_.min + (spec_.max - spec_.min) * shape());
    return AdcReading{static_cast<std::int64_t>(raw), (raw + spec_.offset) * spec_.scale_mv};
  }

 private:
  // Position within [0, 1] of the waveform at the current time.
  double shape() {
    const double period = std::max<std::uint32_t>(1, spec_.period_ms);
    const double phase = static_cast<double>(clock_() % static_cast<std::int64_t>(period)) / period;
    switch (spec_.waveform) {
      case SimAnalogSpec::Waveform::Constant:
        return 1.0;
      case SimAnalogSpec::Waveform::Sine:
        return 0.5 + 0.5 * std::sin(2 * std::numbers::pi * phase);
      case SimAnalogSpec::Waveform::Triangle:
        return phase < 0.5 ? 2 * phase : 2 * (1 - phase);
      case SimAnalogSpec::Waveform::Noise:
        return next_noise();
    }
    return 0;
  }

  // xorshift64: deterministic for a seed, good enough for a test signal.
  double next_noise() {
    noise_state_ ^= noise_state_ << 13;
    noise_state_ ^= noise_state_ >> 7;
    noise_state_ ^= noise_state_ << 17;
    return static_cast<double>(noise_state_ >> 11) / static_cast<double>(1ULL << 53);
  }

  SimAnalogSpec spec_;
  SimClock clock_;
  std::uint64_t noise_state_;
};

// The analog waveform in thousandths of the unit, read back in the unit.
class SimSensorInput final : public SensorInput {
 public:
  SimSensorInput(std::unique_ptr<AnalogInput> thousandths, Quantity quantity)
      : thousandths_(std::move(thousandths)), quantity_(std::move(quantity)) {}
  HalResult<double> read() override {
    auto reading = thousandths_->read();
    if (!reading) return std::unexpected(reading.error());
    return static_cast<double>(reading->raw) / 1000.0;
  }
  const Quantity& quantity() const override { return quantity_; }

 private:
  std::unique_ptr<AnalogInput> thousandths_;
  Quantity quantity_;
};

}  // namespace

SimBoard::SimBoard(SimClock clock) : clock_(std::move(clock)) {
  if (!clock_) {
    const auto start = std::chrono::steady_clock::now();
    clock_ = [start] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    };
  }
}

std::unique_ptr<DigitalOutput> SimBoard::digital_output(const std::string& name, bool initial_level) {
  auto level = std::make_shared<bool>(initial_level);
  output_levels_[name] = level;
  return std::make_unique<SimDigitalOutput>(std::move(level));
}

HalResult<std::unique_ptr<DigitalInput>> SimBoard::digital_input(const SimInputSpec& spec) {
  std::shared_ptr<const bool> source;
  if (spec.mode == SimInputSpec::Mode::Loopback) {
    const auto it = output_levels_.find(spec.loopback_from);
    if (it == output_levels_.end()) {
      return std::unexpected(
          HalError{HalError::Kind::NotFound, "no simulated digital output named '" + spec.loopback_from + "'"});
    }
    source = it->second;
  }
  return std::make_unique<SimDigitalInput>(spec, clock_, std::move(source));
}

std::unique_ptr<PwmOutput> SimBoard::pwm_output(std::uint32_t frequency_hz) {
  return std::make_unique<SimPwmOutput>(frequency_hz);
}

std::unique_ptr<AnalogInput> SimBoard::analog_input(const SimAnalogSpec& spec) {
  return std::make_unique<SimAnalogInput>(spec, clock_);
}

std::unique_ptr<SensorInput> SimBoard::sensor_input(const SimAnalogSpec& spec, Quantity quantity) {
  SimAnalogSpec thousandths = spec;
  thousandths.min = spec.min * 1000;
  thousandths.max = spec.max * 1000;
  return std::make_unique<SimSensorInput>(analog_input(thousandths), std::move(quantity));
}

}  // namespace mcpud::hal
