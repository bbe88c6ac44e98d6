// SPDX-License-Identifier: MIT
// Unit tests of the simulated board under an injected clock, and of the pin type names.
#include "mcpud/hal/sim_board.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "mcpud/hal/pins.hpp"

namespace mcpud::hal {
namespace {

// A board whose clock the test sets by hand.
class SimBoardTest : public ::testing::Test {
 protected:
  std::int64_t now = 0;
  SimBoard board{[this] { return now; }};
};

template <class T>
T value_of(const HalResult<T>& result) {
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().message);
  return result ? *result : T{};
}

// --- digital outputs and inputs -------------------------------------------------

TEST_F(SimBoardTest, DigitalOutput_StartsAtItsInitialLevel) {
  EXPECT_FALSE(value_of(board.digital_output("low", false)->read()));
  EXPECT_TRUE(value_of(board.digital_output("high", true)->read()));
}

TEST_F(SimBoardTest, DigitalOutput_RemembersTheLastWrite) {
  auto out = board.digital_output("led", false);
  for (const bool level : {true, true, false, true, false}) {
    ASSERT_TRUE(out->write(level));
    EXPECT_EQ(value_of(out->read()), level);
  }
}

TEST_F(SimBoardTest, ConstantInput_ReadsItsLevelAtAnyTime) {
  for (const bool level : {false, true}) {
    SimInputSpec spec;
    spec.mode = SimInputSpec::Mode::Constant;
    spec.level = level;
    auto input = board.digital_input(spec);
    ASSERT_TRUE(input);
    for (const std::int64_t t : {0, 1, 499, 500, 123456789}) {
      now = t;
      EXPECT_EQ(value_of((*input)->read()), level) << t;
    }
  }
}

struct SquareCase {
  std::int64_t t;
  bool level;
};

TEST_F(SimBoardTest, SquareInput_HoldsItsLevelForTheFirstHalfOfEachPeriodAsTable) {
  SimInputSpec spec;
  spec.mode = SimInputSpec::Mode::Square;
  spec.level = true;
  spec.period_ms = 1000;
  auto input = board.digital_input(spec);
  ASSERT_TRUE(input);
  const std::vector<SquareCase> cases = {
      {0, true},    {1, true},    {499, true},   {500, false},    {999, false},
      {1000, true}, {1499, true}, {1500, false}, {1000000, true}, {1000500, false},
  };
  for (const auto& c : cases) {
    now = c.t;
    EXPECT_EQ(value_of((*input)->read()), c.level) << "t=" << c.t;
  }
}

TEST_F(SimBoardTest, SquareInput_StartingLowIsTheInverse) {
  SimInputSpec spec;
  spec.mode = SimInputSpec::Mode::Square;
  spec.level = false;
  spec.period_ms = 4000;
  auto input = board.digital_input(spec);
  ASSERT_TRUE(input);
  now = 1999;
  EXPECT_FALSE(value_of((*input)->read()));
  now = 2000;
  EXPECT_TRUE(value_of((*input)->read()));
  now = 4000;
  EXPECT_FALSE(value_of((*input)->read()));
}

TEST_F(SimBoardTest, SquareInput_TogglesEveryMillisecondAtTheShortestPeriods) {
  for (const std::uint32_t period : {0u, 1u, 2u}) {
    SimInputSpec spec;
    spec.mode = SimInputSpec::Mode::Square;
    spec.level = true;
    spec.period_ms = period;
    auto input = board.digital_input(spec);
    ASSERT_TRUE(input);
    for (std::int64_t t = 0; t < 6; ++t) {
      now = t;
      EXPECT_EQ(value_of((*input)->read()), t % 2 == 0) << "period " << period << " t=" << t;
    }
  }
}

TEST_F(SimBoardTest, LoopbackInput_ReadsTheOutputItIsWiredTo) {
  auto out = board.digital_output("led", false);
  SimInputSpec spec;
  spec.mode = SimInputSpec::Mode::Loopback;
  spec.loopback_from = "led";
  auto input = board.digital_input(spec);
  ASSERT_TRUE(input);
  EXPECT_FALSE(value_of((*input)->read()));
  ASSERT_TRUE(out->write(true));
  EXPECT_TRUE(value_of((*input)->read()));
  ASSERT_TRUE(out->write(false));
  EXPECT_FALSE(value_of((*input)->read()));
}

TEST_F(SimBoardTest, LoopbackInput_FollowsOnlyItsOwnOutput) {
  auto a = board.digital_output("a", false);
  auto b = board.digital_output("b", false);
  SimInputSpec spec;
  spec.mode = SimInputSpec::Mode::Loopback;
  spec.loopback_from = "b";
  auto input = board.digital_input(spec);
  ASSERT_TRUE(input);
  ASSERT_TRUE(a->write(true));
  EXPECT_FALSE(value_of((*input)->read()));
  ASSERT_TRUE(b->write(true));
  EXPECT_TRUE(value_of((*input)->read()));
}

TEST_F(SimBoardTest, LoopbackInput_KeepsWorkingAfterTheOutputHandleIsGone) {
  auto out = board.digital_output("led", true);
  SimInputSpec spec;
  spec.mode = SimInputSpec::Mode::Loopback;
  spec.loopback_from = "led";
  auto input = board.digital_input(spec);
  ASSERT_TRUE(input);
  out.reset();
  EXPECT_TRUE(value_of((*input)->read()));
}

TEST_F(SimBoardTest, LoopbackInput_FromAnUnknownOutputFailsWithNotFound) {
  board.digital_output("led", false);
  SimInputSpec spec;
  spec.mode = SimInputSpec::Mode::Loopback;
  spec.loopback_from = "lde";
  const auto input = board.digital_input(spec);
  ASSERT_FALSE(input);
  EXPECT_EQ(input.error().kind, HalError::Kind::NotFound);
  EXPECT_NE(input.error().message.find("lde"), std::string::npos);
}

TEST(SimBoard, LoopbackInput_CannotSeeAnotherBoardsOutputs) {
  SimBoard first([] { return std::int64_t{0}; });
  SimBoard second([] { return std::int64_t{0}; });
  first.digital_output("led", false);
  SimInputSpec spec;
  spec.mode = SimInputSpec::Mode::Loopback;
  spec.loopback_from = "led";
  EXPECT_FALSE(second.digital_input(spec));
}

TEST(SimBoard, DefaultClockBoardServesEveryPinType) {
  SimBoard board;
  auto out = board.digital_output("o", true);
  EXPECT_TRUE(value_of(out->read()));
  SimInputSpec spec;
  spec.level = true;
  auto input = board.digital_input(spec);
  ASSERT_TRUE(input);
  EXPECT_TRUE(value_of((*input)->read()));
  EXPECT_EQ(board.pwm_output(50)->state().frequency_hz, 50u);
  SimAnalogSpec analog;
  analog.waveform = SimAnalogSpec::Waveform::Sine;
  const auto reading = value_of(board.analog_input(analog)->read());
  EXPECT_GE(reading.raw, 0);
  EXPECT_LE(reading.raw, 4095);
}

// --- PWM ----------------------------------------------------------------------

TEST_F(SimBoardTest, Pwm_StartsOffAtItsFrequency) {
  const auto pwm = board.pwm_output(25000);
  EXPECT_EQ(pwm->state().duty, 0);
  EXPECT_EQ(pwm->state().frequency_hz, 25000u);
}

TEST_F(SimBoardTest, Pwm_RemembersDutyAndFrequency) {
  auto pwm = board.pwm_output(1000);
  ASSERT_TRUE(pwm->set({0.25, 500}));
  EXPECT_EQ(pwm->state().duty, 0.25);
  EXPECT_EQ(pwm->state().frequency_hz, 500u);
}

TEST_F(SimBoardTest, Pwm_FrequencyZeroKeepsTheCurrentFrequency) {
  auto pwm = board.pwm_output(1000);
  ASSERT_TRUE(pwm->set({0.5, 0}));
  EXPECT_EQ(pwm->state().duty, 0.5);
  EXPECT_EQ(pwm->state().frequency_hz, 1000u);
}

struct DutyCase {
  double duty;
  bool accepted;
};

TEST_F(SimBoardTest, Pwm_AcceptsDutyFromZeroToOneOnlyAsTable) {
  const std::vector<DutyCase> cases = {
      {0.0, true},
      {1.0, true},
      {0.5, true},
      {128 / 255.0, true},
      {-0.0001, false},
      {1.0001, false},
      {-1, false},
      {2, false},
      {std::numeric_limits<double>::infinity(), false},
      {-std::numeric_limits<double>::infinity(), false},
      {std::numeric_limits<double>::quiet_NaN(), false},
  };
  for (const auto& c : cases) {
    auto pwm = board.pwm_output(1000);
    ASSERT_TRUE(pwm->set({0.5, 2000}));
    const auto set = pwm->set({c.duty, 3000});
    EXPECT_EQ(set.has_value(), c.accepted) << "duty " << c.duty;
    if (c.accepted) {
      EXPECT_EQ(pwm->state().duty, c.duty);
      EXPECT_EQ(pwm->state().frequency_hz, 3000u);
    } else {
      EXPECT_EQ(set.error().kind, HalError::Kind::InvalidArgument) << "duty " << c.duty;
      // A refused state leaves the output as it was.
      EXPECT_EQ(pwm->state().duty, 0.5) << "duty " << c.duty;
      EXPECT_EQ(pwm->state().frequency_hz, 2000u) << "duty " << c.duty;
    }
  }
}

// --- ADC ----------------------------------------------------------------------

SimAnalogSpec analog(SimAnalogSpec::Waveform waveform, double min, double max, std::uint32_t period_ms = 10000) {
  SimAnalogSpec spec;
  spec.waveform = waveform;
  spec.min = min;
  spec.max = max;
  spec.period_ms = period_ms;
  spec.scale_mv = 1.0;
  spec.offset = 0;
  return spec;
}

struct WaveCase {
  std::int64_t t;
  std::int64_t raw;
};

TEST_F(SimBoardTest, SineWaveform_StartsMidwayAndPeaksAtAQuarterAsTable) {
  auto adc = board.analog_input(analog(SimAnalogSpec::Waveform::Sine, 100, 1100, 10000));
  const std::vector<WaveCase> cases = {
      {0, 600}, {2500, 1100}, {5000, 600}, {7500, 100}, {10000, 600}, {12500, 1100}, {1250, 954},
  };
  for (const auto& c : cases) {
    now = c.t;
    EXPECT_EQ(value_of(adc->read()).raw, c.raw) << "t=" << c.t;
  }
}

TEST_F(SimBoardTest, TriangleWaveform_RisesThenFallsAsTable) {
  auto adc = board.analog_input(analog(SimAnalogSpec::Waveform::Triangle, 100, 1100, 10000));
  const std::vector<WaveCase> cases = {
      {0, 100}, {1000, 300}, {2500, 600}, {5000, 1100}, {7500, 600}, {9000, 300}, {10000, 100},
  };
  for (const auto& c : cases) {
    now = c.t;
    EXPECT_EQ(value_of(adc->read()).raw, c.raw) << "t=" << c.t;
  }
}

TEST_F(SimBoardTest, ConstantWaveform_NeverChanges) {
  auto adc = board.analog_input(analog(SimAnalogSpec::Waveform::Constant, 512, 512));
  for (const std::int64_t t : {0, 1, 2500, 5000, 99999}) {
    now = t;
    EXPECT_EQ(value_of(adc->read()).raw, 512) << t;
  }
}

TEST_F(SimBoardTest, Waveforms_StayWithinMinAndMax) {
  using W = SimAnalogSpec::Waveform;
  for (const auto waveform : {W::Constant, W::Sine, W::Triangle, W::Noise}) {
    auto adc = board.analog_input(analog(waveform, 200, 800, 997));
    for (std::int64_t t = 0; t < 3000; t += 7) {
      now = t;
      const auto raw = value_of(adc->read()).raw;
      EXPECT_GE(raw, 200) << static_cast<int>(waveform) << " t=" << t;
      EXPECT_LE(raw, 800) << static_cast<int>(waveform) << " t=" << t;
    }
  }
}

std::vector<std::int64_t> noise(std::uint64_t seed, int count) {
  SimBoard board([] { return std::int64_t{0}; });
  auto spec = analog(SimAnalogSpec::Waveform::Noise, 0, 4095);
  spec.seed = seed;
  auto adc = board.analog_input(spec);
  std::vector<std::int64_t> out;
  for (int i = 0; i < count; ++i) out.push_back(value_of(adc->read()).raw);
  return out;
}

TEST(SimBoardNoise, SameSeedGivesTheSameSequence) {
  EXPECT_EQ(noise(42, 200), noise(42, 200));
  EXPECT_EQ(noise(1, 50), noise(1, 50));
}

TEST(SimBoardNoise, ChangesFromReadToRead) {
  const auto values = noise(7, 100);
  const std::set<std::int64_t> distinct(values.begin(), values.end());
  EXPECT_GT(distinct.size(), 50u);
}

TEST(SimBoardNoise, DifferentSeedsGiveDifferentSequences) {
  // Two noise channels configured with different seeds must not be identical.
  for (std::uint64_t a = 0; a < 8; ++a) {
    for (std::uint64_t b = a + 1; b < 8; ++b) {
      EXPECT_NE(noise(a, 20), noise(b, 20)) << "seeds " << a << " and " << b;
    }
  }
}

TEST(SimBoardNoise, FirstReadingVariesWithTheSeed) {
  // Small seeds must be mixed before use, or every channel starts at its minimum.
  std::set<std::int64_t> first_readings;
  for (std::uint64_t seed = 1; seed <= 32; ++seed) first_readings.insert(noise(seed, 1).front());
  EXPECT_GT(first_readings.size(), 16u);
}

TEST(SimBoardNoise, DoesNotDependOnTheClock) {
  std::int64_t now = 0;
  SimBoard board([&] { return now; });
  auto spec = analog(SimAnalogSpec::Waveform::Noise, 0, 4095);
  spec.seed = 42;
  auto adc = board.analog_input(spec);
  std::vector<std::int64_t> values;
  for (int i = 0; i < 20; ++i) {
    now = i * 12345;
    values.push_back(value_of(adc->read()).raw);
  }
  EXPECT_EQ(values, noise(42, 20));
}

struct MillivoltCase {
  double raw;
  double offset;
  double scale_mv;
  double millivolts;
};

TEST_F(SimBoardTest, Millivolts_AreRawPlusOffsetTimesScaleAsTable) {
  const std::vector<MillivoltCase> cases = {
      {1000, 0, 1.0, 1000},           {1000, 10, 2.0, 2020},    {1000, -1000, 5.0, 0},
      {4095, 0, 3300.0 / 4095, 3300}, {0, 0, 3300.0 / 4095, 0}, {100, -50, 0.5, 25},
  };
  for (const auto& c : cases) {
    auto spec = analog(SimAnalogSpec::Waveform::Constant, c.raw, c.raw);
    spec.offset = c.offset;
    spec.scale_mv = c.scale_mv;
    const auto reading = value_of(board.analog_input(spec)->read());
    EXPECT_EQ(reading.raw, static_cast<std::int64_t>(c.raw));
    EXPECT_NEAR(reading.millivolts, c.millivolts, 1e-9) << c.raw << " " << c.offset << " " << c.scale_mv;
  }
}

TEST(SimAnalogSpec, DefaultsDescribeATwelveBitConverterAtThreePointThreeVolts) {
  const SimAnalogSpec spec;
  EXPECT_EQ(spec.min, 0);
  EXPECT_EQ(spec.max, 4095);
  EXPECT_NEAR(spec.scale_mv * 4095, 3300, 1e-9);
  EXPECT_EQ(spec.offset, 0);
}

// --- pin type names -------------------------------------------------------------

struct TypeName {
  PinType type;
  const char* name;
};

TEST(PinTypes, NamesRoundTripAsTable) {
  const std::vector<TypeName> names = {
      {PinType::DigitalOutput, "digital_output"}, {PinType::DigitalInput, "digital_input"},
      {PinType::PwmOutput, "pwm_output"},         {PinType::AdcInput, "adc_input"},
      {PinType::SensorInput, "sensor_input"},
  };
  for (const auto& n : names) {
    EXPECT_EQ(pin_type_name(n.type), n.name);
    PinType parsed = n.type == PinType::AdcInput ? PinType::DigitalOutput : PinType::AdcInput;
    ASSERT_TRUE(parse_pin_type(n.name, parsed)) << n.name;
    EXPECT_EQ(parsed, n.type) << n.name;
  }
}

TEST(PinTypes, UnknownNamesAreRefusedAndLeaveTheOutputAlone) {
  for (const char* name : {"", "digital", "Digital_Output", "digital_output ", "adc", "pwm"}) {
    PinType parsed = PinType::PwmOutput;
    EXPECT_FALSE(parse_pin_type(name, parsed)) << name;
    EXPECT_EQ(parsed, PinType::PwmOutput) << name;
  }
}

TEST_F(SimBoardTest, SensorInput_RunsFromMinToMaxInItsUnitToAThousandth) {
  SimAnalogSpec spec;
  spec.waveform = SimAnalogSpec::Waveform::Triangle;
  spec.min = 20;
  spec.max = 25;
  spec.period_ms = 1000;
  auto sensor = board.sensor_input(spec, *quantity_named("temperature"));
  EXPECT_EQ(sensor->quantity().unit, "degC");
  now = 0;
  EXPECT_DOUBLE_EQ(value_of(sensor->read()), 20.0);
  now = 250;
  EXPECT_DOUBLE_EQ(value_of(sensor->read()), 22.5);
  now = 500;
  EXPECT_DOUBLE_EQ(value_of(sensor->read()), 25.0);
  now = 101;
  EXPECT_DOUBLE_EQ(value_of(sensor->read()), 21.01);
}

}  // namespace
}  // namespace mcpud::hal
