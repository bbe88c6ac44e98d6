// SPDX-License-Identifier: MIT
// The BME280's registers, and raw values found by inverting Bosch's
// compensation (datasheet section 4.2.3, the 32- and 64-bit integer code), so
// that a host compensating them gets the simulated room's air back.
#include "bme280.hpp"

#include <cmath>
#include <functional>

#include "sim_room.hpp"

namespace mcpud::hal::sim {
namespace {

constexpr std::uint8_t kChipId = 0x60;
constexpr std::uint8_t kRegId = 0xD0, kRegReset = 0xE0, kRegCtrlHum = 0xF2, kRegStatus = 0xF3, kRegCtrlMeas = 0xF4,
                       kRegConfig = 0xF5, kRegData = 0xF7;
constexpr std::uint8_t kResetWord = 0xB6;
constexpr std::uint8_t kStatusMeasuring = 0x08;

// A factory calibration as one BME280 left the factory with it: the
// temperature and pressure words of the datasheet's worked example, and the
// humidity words of a part on a breakout board.
struct Calibration {
  std::uint16_t t1 = 27504;
  std::int16_t t2 = 26435, t3 = -1000;
  std::uint16_t p1 = 36477;
  std::int16_t p2 = -10685, p3 = 3024, p4 = 2855, p5 = 140, p6 = -7, p7 = 15500, p8 = -14600, p9 = 6000;
  std::uint8_t h1 = 75;
  std::int16_t h2 = 362;
  std::uint8_t h3 = 0;
  std::int16_t h4 = 313, h5 = 50;
  std::int8_t h6 = 30;
};
constexpr Calibration kCalibration;

void put_le(std::array<std::uint8_t, 256>& regs, std::uint8_t at, std::uint16_t value) {
  regs[at] = value & 0xFF;
  regs[at + 1] = value >> 8;
}

void put_calibration(std::array<std::uint8_t, 256>& regs) {
  const auto& c = kCalibration;
  const std::uint16_t words[] = {c.t1,
                                 static_cast<std::uint16_t>(c.t2),
                                 static_cast<std::uint16_t>(c.t3),
                                 c.p1,
                                 static_cast<std::uint16_t>(c.p2),
                                 static_cast<std::uint16_t>(c.p3),
                                 static_cast<std::uint16_t>(c.p4),
                                 static_cast<std::uint16_t>(c.p5),
                                 static_cast<std::uint16_t>(c.p6),
                                 static_cast<std::uint16_t>(c.p7),
                                 static_cast<std::uint16_t>(c.p8),
                                 static_cast<std::uint16_t>(c.p9)};
  std::uint8_t at = 0x88;
  for (const auto word : words) {
    put_le(regs, at, word);
    at += 2;
  }
  regs[0xA1] = c.h1;
  put_le(regs, 0xE1, static_cast<std::uint16_t>(c.h2));
  regs[0xE3] = c.h3;
  // dig_H4 and dig_H5 are 12-bit numbers sharing 0xE5's two halves.
  regs[0xE4] = static_cast<std::uint8_t>(c.h4 >> 4);
  regs[0xE5] = static_cast<std::uint8_t>((c.h4 & 0x0F) | ((c.h5 & 0x0F) << 4));
  regs[0xE6] = static_cast<std::uint8_t>(c.h5 >> 4);
  regs[0xE7] = static_cast<std::uint8_t>(c.h6);
}

// Bosch's integer compensation: degC * 100, and t_fine.
std::int32_t compensate_t(std::int32_t adc_t, std::int32_t& t_fine) {
  const auto& c = kCalibration;
  const std::int32_t var1 = (((adc_t >> 3) - (std::int32_t{c.t1} << 1)) * c.t2) >> 11;
  const std::int32_t d = (adc_t >> 4) - std::int32_t{c.t1};
  const std::int32_t var2 = (((d * d) >> 12) * c.t3) >> 14;
  t_fine = var1 + var2;
  return (t_fine * 5 + 128) >> 8;
}

// Pa * 256. Bosch returns it unsigned; signed here, so that raw values no
// chip gives (below 0 Pa) do not wrap around and the search below sees one
// falling curve.
std::int64_t compensate_p(std::int32_t adc_p, std::int32_t t_fine) {
  const auto& c = kCalibration;
  std::int64_t var1 = std::int64_t{t_fine} - 128000;
  std::int64_t var2 = var1 * var1 * c.p6;
  var2 = var2 + ((var1 * c.p5) * (std::int64_t{1} << 17));
  var2 = var2 + (std::int64_t{c.p4} * (std::int64_t{1} << 35));
  var1 = ((var1 * var1 * c.p3) >> 8) + ((var1 * c.p2) * (std::int64_t{1} << 12));
  var1 = (((std::int64_t{1} << 47) + var1)) * c.p1 >> 33;
  if (var1 == 0) return 0;
  std::int64_t p = 1048576 - adc_p;
  p = (((p * (std::int64_t{1} << 31)) - var2) * 3125) / var1;
  var1 = (std::int64_t{c.p9} * (p >> 13) * (p >> 13)) >> 25;
  var2 = (std::int64_t{c.p8} * p) >> 19;
  return ((p + var1 + var2) >> 8) + (std::int64_t{c.p7} << 4);
}

// %RH * 1024.
std::uint32_t compensate_h(std::int32_t adc_h, std::int32_t t_fine) {
  const auto& c = kCalibration;
  std::int32_t v = t_fine - 76800;
  v = (((((adc_h << 14) - (std::int32_t{c.h4} << 20) - (std::int32_t{c.h5} * v)) + 16384) >> 15) *
       (((((((v * c.h6) >> 10) * (((v * std::int32_t{c.h3}) >> 11) + 32768)) >> 10) + 2097152) * c.h2 + 8192) >> 14));
  v = v - (((((v >> 15) * (v >> 15)) >> 7) * std::int32_t{c.h1}) >> 4);
  v = v < 0 ? 0 : v;
  v = v > 419430400 ? 419430400 : v;
  return static_cast<std::uint32_t>(v >> 12);
}

// The raw value in [0, limit) whose compensation is closest to `wanted`;
// `compensated` rises or falls with the raw value throughout.
std::int32_t invert(const std::function<double(std::int32_t)>& compensated, double wanted, std::int32_t limit) {
  const bool rising = compensated(limit - 1) > compensated(0);
  std::int32_t low = 0, high = limit - 1;
  while (low < high) {
    const std::int32_t mid = low + (high - low) / 2;
    if ((compensated(mid) < wanted) == rising)
      low = mid + 1;
    else
      high = mid;
  }
  if (low > 0 && std::abs(compensated(low - 1) - wanted) < std::abs(compensated(low) - wanted)) return low - 1;
  return low;
}

// Oversampling setting (0-7) to samples averaged; 0 skips the measurement.
int samples(std::uint8_t setting) { return setting == 0 ? 0 : 1 << std::min<int>(setting - 1, 4); }

// A 20-bit result keeps 16 bits plus one per doubling of oversampling (no IIR filter).
std::int32_t at_resolution(std::int32_t raw, std::uint8_t setting) {
  const int bits = 16 + std::min<int>(setting - 1, 4);
  return raw & ~((1 << (20 - bits)) - 1);
}

void put_20bit(std::array<std::uint8_t, 256>& regs, std::uint8_t at, std::int32_t raw) {
  regs[at] = static_cast<std::uint8_t>(raw >> 12);
  regs[at + 1] = static_cast<std::uint8_t>(raw >> 4);
  regs[at + 2] = static_cast<std::uint8_t>((raw & 0x0F) << 4);
}

}  // namespace

SimBme280::SimBme280(SimClock clock) : clock_(std::move(clock)) { reset(); }

void SimBme280::reset() {
  regs_.fill(0);
  regs_[kRegId] = kChipId;
  put_calibration(regs_);
  // Until a measurement: 0x80000 and 0x8000, what the chip reports for a skipped one.
  put_20bit(regs_, kRegData, 0x80000);
  put_20bit(regs_, kRegData + 3, 0x80000);
  regs_[kRegData + 6] = 0x80;
  mode_ = Mode::Sleep;
  osrs_h_ = 0;
  forced_pending_ = false;
  stored_cycle_ = -1;
}

bool SimBme280::write(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return true;
  pointer_ = bytes[0];
  for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) write_register(bytes[i], bytes[i + 1]);
  return true;
}

void SimBme280::read(std::span<std::uint8_t> out) {
  for (auto& byte : out) byte = read_register(pointer_++);
}

void SimBme280::write_register(std::uint8_t reg, std::uint8_t value) {
  advance();
  switch (reg) {
    case kRegReset:
      if (value == kResetWord) reset();
      return;
    case kRegCtrlHum:
      regs_[reg] = value & 0x07;
      return;
    case kRegConfig:
      regs_[reg] = value & 0xFD;  // bit 1 is reserved
      return;
    case kRegCtrlMeas: {
      regs_[reg] = value;
      osrs_h_ = regs_[kRegCtrlHum];
      const auto mode = value & 0x03;
      mode_ = mode == 0 ? Mode::Sleep : mode == 3 ? Mode::Normal : Mode::Forced;
      if (mode_ != Mode::Sleep) start_measuring(clock_());
      return;
    }
    default:
      return;  // the others are read-only
  }
}

std::uint8_t SimBme280::read_register(std::uint8_t reg) {
  advance();
  if (reg != kRegStatus) return regs_[reg];
  const auto now = clock_();
  bool measuring = false;
  if (mode_ == Mode::Forced) measuring = forced_pending_;
  if (mode_ == Mode::Normal) {
    const double cycle = measurement_ms() + standby_ms();
    const double into = std::fmod(static_cast<double>(now - started_ms_), cycle);
    measuring = into < measurement_ms();
  }
  return measuring ? kStatusMeasuring : 0;
}

void SimBme280::start_measuring(std::int64_t now) {
  started_ms_ = now;
  forced_pending_ = mode_ == Mode::Forced;
  stored_cycle_ = -1;
}

void SimBme280::advance() {
  const auto now = clock_();
  const double duration = measurement_ms();
  if (mode_ == Mode::Forced && forced_pending_ && static_cast<double>(now - started_ms_) >= duration) {
    store_measurement(started_ms_ + static_cast<std::int64_t>(std::ceil(duration)));
    forced_pending_ = false;
    mode_ = Mode::Sleep;
    regs_[kRegCtrlMeas] &= 0xFC;  // back asleep: ctrl_meas reads mode 00
  }
  if (mode_ != Mode::Normal) return;
  const double cycle = duration + standby_ms();
  const double since = static_cast<double>(now - started_ms_);
  // The last cycle whose measurement has finished by now.
  const auto finished = static_cast<std::int64_t>(std::floor((since - duration) / cycle));
  if (finished < 0 || finished == stored_cycle_) return;
  stored_cycle_ = finished;
  store_measurement(started_ms_ +
                    static_cast<std::int64_t>(std::ceil(static_cast<double>(finished) * cycle + duration)));
}

double SimBme280::measurement_ms() const {
  const auto& ctrl = regs_[kRegCtrlMeas];
  const int t = samples(ctrl >> 5), p = samples((ctrl >> 2) & 0x07), h = samples(osrs_h_);
  // The datasheet's maximum measurement time (section 9.1).
  return 1.25 + (t ? 2.3 * t : 0) + (p ? 2.3 * p + 0.575 : 0) + (h ? 2.3 * h + 0.575 : 0);
}

double SimBme280::standby_ms() const {
  static constexpr double kStandby[] = {0.5, 62.5, 125, 250, 500, 1000, 10, 20};
  return kStandby[regs_[kRegConfig] >> 5];
}

void SimBme280::store_measurement(std::int64_t ms) {
  const std::uint8_t osrs_t = regs_[kRegCtrlMeas] >> 5, osrs_p = (regs_[kRegCtrlMeas] >> 2) & 0x07;
  std::int32_t t_fine = 0;
  const auto temperature = [&](std::int32_t raw) { return compensate_t(raw, t_fine) / 100.0; };
  std::int32_t adc_t = invert(temperature, room_temperature_c(ms), 1 << 20);
  const std::int32_t true_adc_t = adc_t;
  if (osrs_t) adc_t = at_resolution(adc_t, osrs_t);
  // Pressure and humidity compensate with the temperature the chip measured.
  compensate_t(osrs_t ? adc_t : true_adc_t, t_fine);
  const auto pressure = [&](std::int32_t raw) { return static_cast<double>(compensate_p(raw, t_fine)) / 256.0; };
  std::int32_t adc_p = invert(pressure, room_pressure_pa(ms), 1 << 20);
  if (osrs_p) adc_p = at_resolution(adc_p, osrs_p);
  const auto humidity = [&](std::int32_t raw) { return compensate_h(raw, t_fine) / 1024.0; };
  const std::int32_t adc_h = invert(humidity, room_humidity_rh(ms), 1 << 16);
  put_20bit(regs_, kRegData, osrs_p ? adc_p : 0x80000);
  put_20bit(regs_, kRegData + 3, osrs_t ? adc_t : 0x80000);
  const std::int32_t h = osrs_h_ ? adc_h : 0x8000;
  regs_[kRegData + 6] = static_cast<std::uint8_t>(h >> 8);
  regs_[kRegData + 7] = static_cast<std::uint8_t>(h & 0xFF);
}

}  // namespace mcpud::hal::sim
