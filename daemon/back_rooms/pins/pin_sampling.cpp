// SPDX-License-Identifier: MIT
// Per-pin sampling timers feeding each pin's PinSampler.
#include "mcpud/pins/pin_sampling.hpp"

#include <chrono>
#include <memory>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/sample_push.hpp"
#include "mcpud/pins/sensor_reads.hpp"
#include "pin_edges.hpp"

namespace mcpud::pins {
namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The value a sampled pin contributes: 0/1 for digital inputs, raw counts for
// ADC, the value in its unit for a (fast) sensor.
std::optional<double> read_sample(BoardPin& pin) {
  if (pin.input) {
    if (auto level = pin.input->read())
      return *level ? 1.0 : 0.0;
    else
      log::debug("sampling", pin.name(), ": ", level.error().message);
  } else if (pin.adc) {
    if (auto reading = pin.adc->read())
      return static_cast<double>(reading->raw);
    else
      log::debug("sampling", pin.name(), ": ", reading.error().message);
  } else if (pin.sensor) {
    if (auto value = pin.sensor->read())
      return *value;
    else
      log::debug("sampling", pin.name(), ": ", value.error().message);
  }
  return std::nullopt;
}

}  // namespace

void publish_pin_events(const BoardPin& pin, std::uint64_t since, EventHub& events) {
  const auto slice = pin.sampler->events().read(since, pin.sampler->events().capacity());
  for (const auto* entry : slice.entries) {
    const auto& e = entry->item;
    nlohmann::json data = {{"pin", pin.number()},
                           {"name", pin.name()},
                           {"type", event_type_name(e.type)},
                           {"value", e.value},
                           {"timestamp_ms", e.timestamp_ms},
                           {"seq", entry->seq}};
    if (e.threshold) data["threshold"] = *e.threshold;
    events.publish({EventKind::PinEvent, pin.name(), std::move(data)});
  }
}

struct PinSampling::Timers {
  struct PinTimer {
    BoardPin* pin;
    boost::asio::steady_timer timer;
    SamplePush push{};     // live samples for subscribers
    bool reading = false;  // a slow sensor's read is in flight
  };

  Timers(boost::asio::io_context& io, PinTable& pins, SensorReads& reads, EventHub& events)
      : io(io), pins(pins), reads(reads), events(events), edges(io, pins, events) {}

  void schedule(const std::shared_ptr<PinTimer>& entry) {
    const auto interval = std::chrono::milliseconds(entry->pin->sampler->options().interval_ms);
    // Fixed-rate: the next tick is one interval after the previous deadline, so
    // sample times do not drift; after a stall, resume from now instead of bursting.
    auto next = entry->timer.expiry() + interval;
    if (next < std::chrono::steady_clock::now()) next = std::chrono::steady_clock::now() + interval;
    entry->timer.expires_at(next);
    // A tick that had already fired when stop() cancelled it still runs, with
    // success: it must find its timer gone (a reload replaced the pins) rather
    // than sample a pin freed since. Timers owns the entries, so `this` lives
    // as long as one does.
    entry->timer.async_wait([this, weak = std::weak_ptr(entry)](boost::system::error_code ec) {
      auto alive = weak.lock();
      if (ec || !alive) return;
      sample(alive, true);
      schedule(alive);
    });
  }

  // `push` sends the sample to subscribers (not the first one, taken at start).
  void sample(const std::shared_ptr<PinTimer>& entry, bool push) {
    BoardPin& pin = *entry->pin;
    if (pin.sensor && pin.sensor->slow()) return sample_later(entry, push);
    if (auto value = read_sample(pin)) add(pin, *value, push ? &entry->push : nullptr);
  }

  // A slow sensor's value arrives after its conversion; meanwhile other pins
  // keep their ticks, and this pin's ticks skip rather than queue more reads.
  void sample_later(const std::shared_ptr<PinTimer>& entry, bool push) {
    if (entry->reading) return;
    entry->reading = true;
    // Timers owns the entries, so `this` lives as long as one does.
    reads.read(entry->pin->sensor, [this, weak = std::weak_ptr(entry), push](const hal::HalResult<double>& value) {
      auto alive = weak.lock();
      if (!alive) return;  // stopped, or a reload replaced the pins, during the read
      alive->reading = false;
      if (value) {
        add(*alive->pin, *value, push ? &alive->push : nullptr);
      } else {
        log::debug("sampling", alive->pin->name(), ": ", value.error().message);
      }
    });
  }

  void add(BoardPin& pin, double value, SamplePush* push) {
    const auto before = pin.sampler->events().last_seq();
    const auto at = now_ms();
    pin.sampler->add(value, at);
    publish_pin_events(pin, before, events);
    if (push) push->add(pin, value, at, events);
  }

  boost::asio::io_context& io;
  PinTable& pins;
  SensorReads& reads;
  EventHub& events;
  std::vector<std::shared_ptr<PinTimer>> timers;
  PinEdges edges;  // hardware edge events, read when their fds are readable
};

PinSampling::PinSampling(boost::asio::io_context& io, PinTable& pins, SensorReads& reads, EventHub& events)
    : timers_(std::make_unique<Timers>(io, pins, reads, events)) {}

PinSampling::~PinSampling() { stop(); }

void PinSampling::start() {
  timers_->edges.start();
  for (auto& pin : timers_->pins.pins()) {
    if (!pin->sampler || pin->sampler->options().interval_ms == 0) continue;
    auto entry =
        std::make_shared<Timers::PinTimer>(Timers::PinTimer{pin.get(), boost::asio::steady_timer(timers_->io)});
    timers_->sample(entry, false);
    entry->timer.expires_at(std::chrono::steady_clock::now());
    timers_->schedule(entry);
    timers_->timers.push_back(std::move(entry));
  }
}

void PinSampling::stop() {
  timers_->edges.stop();
  for (auto& entry : timers_->timers) entry->timer.cancel();
  timers_->timers.clear();
}

}  // namespace mcpud::pins
