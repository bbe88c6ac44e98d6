// SPDX-License-Identifier: MIT
// Sysfs PWM: the attribute writes, in the order the kernel accepts them.
#include "mcpud/hal/pwm_sysfs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

namespace mcpud::hal {
namespace fs = std::filesystem;
namespace {

HalError io_error(const fs::path& path, int error) {
  const bool gone = error == ENODEV || error == ENOENT;
  return HalError{gone ? HalError::Kind::Disconnected : HalError::Kind::Io,
                  path.string() + ": " + std::strerror(error)};
}

// One write() of the whole value, as sysfs attributes expect.
HalResult<void> write_attr(const fs::path& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return std::unexpected(io_error(path, errno));
  const auto written = ::write(fd, value.data(), value.size());
  const int error = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(value.size())) return std::unexpected(io_error(path, written < 0 ? error : EIO));
  return {};
}

std::string read_attr(const fs::path& path) {
  std::ifstream in(path);
  std::string value;
  in >> value;
  return value;
}

std::string list_chips(const fs::path& root) {
  std::string text;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const auto name = entry.path().filename().string();
    if (name.rfind("pwmchip", 0) != 0) continue;
    text += (text.empty() ? "" : ", ") + name + " (" + read_attr(entry.path() / "npwm") + " channels)";
  }
  return text.empty() ? "no PWM chips in " + root.string() : "chips: " + text;
}

// Waits (start-up only, bounded) until the channel's attributes exist and are writable.
bool wait_writable(const fs::path& channel_dir, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (::access((channel_dir / "duty_cycle").c_str(), W_OK) != 0 ||
         ::access((channel_dir / "enable").c_str(), W_OK) != 0) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

class SysfsPwm final : public PwmOutput {
 public:
  SysfsPwm(fs::path chip_dir, unsigned channel, bool exported)
      : chip_dir_(std::move(chip_dir)),
        dir_(chip_dir_ / ("pwm" + std::to_string(channel))),
        channel_(channel),
        exported_(exported) {}

  ~SysfsPwm() override {
    if (exported_) (void)write_attr(chip_dir_ / "unexport", std::to_string(channel_));
  }

  HalResult<void> start(std::uint32_t frequency_hz, bool inverted) {
    (void)write_attr(dir_ / "enable", "0");  // polarity can only change while disabled
    if (auto r = write_attr(dir_ / "duty_cycle", "0"); !r) return r;
    if (auto r = write_attr(dir_ / "polarity", inverted ? "inversed" : "normal"); !r) return r;
    if (auto r = set({0, frequency_hz}); !r) return r;
    return write_attr(dir_ / "enable", "1");
  }

  HalResult<void> set(PwmState next) override {
    if (!(next.duty >= 0 && next.duty <= 1))
      return std::unexpected(HalError{HalError::Kind::InvalidArgument, "duty out of range"});
    if (next.frequency_hz == 0) next.frequency_hz = state_.frequency_hz;
    const auto period = pwm_period_ns(next.frequency_hz);
    const auto duty = pwm_duty_ns(period, next.duty);
    // The kernel refuses a duty cycle longer than the period at every step.
    const bool period_first = period >= duty_ns_;
    if (period_first && period != period_ns_) {
      if (auto r = write_attr(dir_ / "period", std::to_string(period)); !r) return r;
    }
    if (auto r = write_attr(dir_ / "duty_cycle", std::to_string(duty)); !r) return r;
    duty_ns_ = duty;
    if (!period_first) {
      if (auto r = write_attr(dir_ / "period", std::to_string(period)); !r) return r;
    }
    period_ns_ = period;
    state_ = next;
    return {};
  }

  PwmState state() const override { return state_; }

 private:
  fs::path chip_dir_;
  fs::path dir_;
  unsigned channel_;
  bool exported_;
  PwmState state_;
  std::uint64_t period_ns_ = 0;
  std::uint64_t duty_ns_ = 0;
};

}  // namespace

std::uint64_t pwm_period_ns(std::uint32_t frequency_hz) {
  return static_cast<std::uint64_t>(std::llround(1e9 / std::max<std::uint32_t>(1, frequency_hz)));
}

std::uint64_t pwm_duty_ns(std::uint64_t period_ns, double duty) {
  return static_cast<std::uint64_t>(std::llround(static_cast<double>(period_ns) * std::clamp(duty, 0.0, 1.0)));
}

HalResult<std::unique_ptr<PwmOutput>> open_sysfs_pwm(const PwmSysfsSpec& spec) {
  const fs::path chip_dir = fs::path(spec.root) / spec.chip;
  std::error_code ec;
  if (spec.chip.empty() || !fs::is_directory(chip_dir, ec)) {
    return std::unexpected(
        HalError{HalError::Kind::NotFound, "no PWM chip '" + spec.chip + "'; " + list_chips(spec.root)});
  }
  const auto npwm_text = read_attr(chip_dir / "npwm");
  const unsigned npwm = npwm_text.empty() ? 0 : static_cast<unsigned>(std::strtoul(npwm_text.c_str(), nullptr, 10));
  if (spec.channel >= npwm) {
    return std::unexpected(HalError{HalError::Kind::NotFound, spec.chip + " has " + std::to_string(npwm) +
                                                                  " channels; channel " + std::to_string(spec.channel) +
                                                                  " does not exist"});
  }
  const fs::path dir = chip_dir / ("pwm" + std::to_string(spec.channel));
  const bool export_now = !fs::exists(dir, ec);
  if (export_now) {
    if (auto r = write_attr(chip_dir / "export", std::to_string(spec.channel)); !r) return std::unexpected(r.error());
  }
  auto pwm = std::make_unique<SysfsPwm>(chip_dir, spec.channel, export_now);
  if (!wait_writable(dir, spec.settle_timeout)) {
    return std::unexpected(HalError{HalError::Kind::Io, dir.string() + ": not writable (" + std::strerror(errno) +
                                                            "); is mcpud in a group udev gives the pwm files to?"});
  }
  if (auto r = pwm->start(spec.frequency_hz, spec.inverted); !r) return std::unexpected(r.error());
  return pwm;
}

}  // namespace mcpud::hal
