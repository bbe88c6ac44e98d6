// SPDX-License-Identifier: MIT
// Per-pin sampling timers feeding each pin's PinSampler.
#include "tools/pin_sampling.hpp"

#include <chrono>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/log.hpp"
#include "tools/pin_table.hpp"

namespace mcpud::tools {
namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The value a sampled pin contributes: 0/1 for digital inputs, raw counts for ADC.
std::optional<double> read_sample(BoardPin& pin) {
  if (pin.input) {
    if (auto level = pin.input->read()) return *level ? 1.0 : 0.0;
    else log::debug("sampling", pin.name(), ": ", level.error().message);
  } else if (pin.adc) {
    if (auto reading = pin.adc->read()) return static_cast<double>(reading->raw);
    else log::debug("sampling", pin.name(), ": ", reading.error().message);
  }
  return std::nullopt;
}

}  // namespace

struct PinSampling::Impl {
  struct PinTimer {
    BoardPin* pin;
    boost::asio::steady_timer timer;
  };

  Impl(boost::asio::io_context& io, PinTable& pins) : io(io), pins(pins) {}

  void schedule(PinTimer& entry) {
    const auto interval = std::chrono::milliseconds(entry.pin->sampler->options().interval_ms);
    // Fixed-rate: the next tick is one interval after the previous deadline, so
    // sample times do not drift; after a stall, resume from now instead of bursting.
    auto next = entry.timer.expiry() + interval;
    if (next < std::chrono::steady_clock::now()) next = std::chrono::steady_clock::now() + interval;
    entry.timer.expires_at(next);
    entry.timer.async_wait([this, &entry](boost::system::error_code ec) {
      if (ec) return;  // cancelled by stop()
      sample(*entry.pin);
      schedule(entry);
    });
  }

  static void sample(BoardPin& pin) {
    if (auto value = read_sample(pin)) pin.sampler->add(*value, now_ms());
  }

  boost::asio::io_context& io;
  PinTable& pins;
  std::vector<std::unique_ptr<PinTimer>> timers;
};

PinSampling::PinSampling(boost::asio::io_context& io, PinTable& pins) : impl_(std::make_unique<Impl>(io, pins)) {}

PinSampling::~PinSampling() { stop(); }

void PinSampling::start() {
  for (auto& pin : impl_->pins.pins()) {
    if (!pin->sampler) continue;
    Impl::sample(*pin);
    auto entry = std::make_unique<Impl::PinTimer>(Impl::PinTimer{pin.get(), boost::asio::steady_timer(impl_->io)});
    entry->timer.expires_at(std::chrono::steady_clock::now());
    impl_->schedule(*entry);
    impl_->timers.push_back(std::move(entry));
  }
}

void PinSampling::stop() {
  for (auto& entry : impl_->timers) entry->timer.cancel();
  impl_->timers.clear();
}

}  // namespace mcpud::tools
