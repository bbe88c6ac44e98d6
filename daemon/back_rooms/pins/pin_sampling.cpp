// SPDX-License-Identifier: MIT
// Sampling timers feeding each pin's PinSampler.
#include "mcpud/pins/pin_sampling.hpp"

#include <sys/timerfd.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

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
  struct SampledPin {
    BoardPin* pin;
    SamplePush push{};     // live samples for subscribers
    bool reading = false;  // a slow sensor's read is in flight
  };
  // Every pin with the same interval is sampled on one periodic timerfd. The
  // kernel re-arms it, so a tick costs the loop's wake-up and one read, where an
  // asio timer re-armed its timerfd twice per tick, system calls that were most
  // of what sampling at 1 kHz cost (docs/PERFORMANCE.md). Ticks stay on a fixed
  // grid (no drift); ticks missed while the loop was busy are skipped, not
  // sampled in a burst.
  struct IntervalTimer {
    std::chrono::milliseconds interval;
    boost::asio::posix::stream_descriptor fd;
    std::vector<SampledPin> pins;
    // Where a read puts the count of expirations (8 bytes); larger, so that a
    // read tells asio the fd is drained and it does not read again to find out.
    std::array<std::uint64_t, 2> expirations{};
  };

  Timers(boost::asio::io_context& io, PinTable& pins, SensorReads& reads, EventHub& events)
      : io(io), pins(pins), reads(reads), events(events), edges(io, pins, events) {}

  // The timer of `interval`, created on first use; null (logged) when the
  // kernel refuses a timerfd.
  IntervalTimer* timer_for(std::chrono::milliseconds interval) {
    for (auto& entry : timers) {
      if (entry->interval == interval) return entry.get();
    }
    const int fd = periodic_timerfd(interval);
    if (fd < 0) {
      log::error("sampling", "cannot create a ", interval.count(), " ms timer: ", std::strerror(errno),
                 "; its pins are not sampled");
      return nullptr;
    }
    timers.push_back(std::make_shared<IntervalTimer>(
        IntervalTimer{interval, boost::asio::posix::stream_descriptor(io, fd), {}, {}}));
    return timers.back().get();
  }

  static int periodic_timerfd(std::chrono::milliseconds interval) {
    const int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd < 0) return -1;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(interval).count();
    const timespec period{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    const itimerspec spec{period, period};
    if (timerfd_settime(fd, 0, &spec, nullptr) != 0) {
      const int error = errno;
      ::close(fd);
      errno = error;
      return -1;
    }
    return fd;
  }

  void schedule(const std::shared_ptr<IntervalTimer>& entry) {
    // A tick that was already due when stop() cancelled it still runs, with
    // success: it must find its timer gone (a reload replaced the pins) rather
    // than sample a pin freed since. Timers owns the entries, so `this` lives
    // as long as one does. A read, not a wait: asio re-registers the fd with
    // epoll for every wait, and it reads a timerfd without that.
    entry->fd.async_read_some(boost::asio::buffer(entry->expirations),
                              [this, weak = std::weak_ptr(entry)](boost::system::error_code ec, std::size_t n) {
                                auto alive = weak.lock();
                                if (ec || !alive) return;
                                // More than one expiration: the loop woke that many intervals late,
                                // and the ticks in between gave no sample.
                                const auto ticks = n >= sizeof(std::uint64_t) ? alive->expirations[0] : 1;
                                sample_all(alive, true, ticks > 1 ? ticks - 1 : 0);
                                schedule(alive);
                              });
  }

  // `push` sends the samples to subscribers (not the first ones, taken at start);
  // `late_ticks` ticks passed before this one without a sample.
  void sample_all(const std::shared_ptr<IntervalTimer>& timer, bool push, std::uint64_t late_ticks = 0) {
    const auto at = now_ms();
    for (std::size_t index = 0; index < timer->pins.size(); ++index) {
      SampledPin& sampled = timer->pins[index];
      BoardPin& pin = *sampled.pin;
      if (late_ticks > 0) pin.sampler->add_missed(late_ticks);
      if (pin.sensor && pin.sensor->slow()) {
        sample_later(timer, index, push);
      } else if (auto value = read_sample(pin)) {
        add(pin, *value, at, push ? &sampled.push : nullptr);
      } else {
        pin.sampler->add_missed(1);
      }
    }
  }

  // A slow sensor's value arrives after its conversion; meanwhile other pins
  // keep their ticks, and this pin's ticks skip rather than queue more reads.
  void sample_later(const std::shared_ptr<IntervalTimer>& timer, std::size_t index, bool push) {
    SampledPin& sampled = timer->pins[index];
    if (sampled.reading) return sampled.pin->sampler->add_missed(1);
    sampled.reading = true;
    // Timers owns the timers, so `this` lives as long as one does; a timer's
    // pin list does not change once sampling started.
    reads.read(sampled.pin->sensor,
               [this, weak = std::weak_ptr(timer), index, push](const hal::HalResult<double>& value) {
                 auto alive = weak.lock();
                 if (!alive) return;  // stopped, or a reload replaced the pins, during the read
                 SampledPin& done = alive->pins[index];
                 done.reading = false;
                 if (value) {
                   add(*done.pin, *value, now_ms(), push ? &done.push : nullptr);
                 } else {
                   done.pin->sampler->add_missed(1);
                   log::debug("sampling", done.pin->name(), ": ", value.error().message);
                 }
               });
  }

  void add(BoardPin& pin, double value, std::int64_t at, SamplePush* push) {
    const auto before = pin.sampler->events().last_seq();
    pin.sampler->add(value, at);
    if (pin.sampler->events().last_seq() != before) publish_pin_events(pin, before, events);
    if (push) push->add(pin, value, at, events);
  }

  boost::asio::io_context& io;
  PinTable& pins;
  SensorReads& reads;
  EventHub& events;
  std::vector<std::shared_ptr<IntervalTimer>> timers;
  PinEdges edges;  // hardware edge events, read when their fds are readable
};

PinSampling::PinSampling(boost::asio::io_context& io, PinTable& pins, SensorReads& reads, EventHub& events)
    : timers_(std::make_unique<Timers>(io, pins, reads, events)) {}

PinSampling::~PinSampling() { stop(); }

void PinSampling::start() {
  timers_->edges.start();
  for (auto& pin : timers_->pins.pins()) {
    if (!pin->sampler || pin->sampler->options().interval_ms == 0) continue;
    const auto interval = std::chrono::milliseconds(pin->sampler->options().interval_ms);
    if (auto* timer = timers_->timer_for(interval)) timer->pins.push_back({pin.get()});
  }
  for (const auto& entry : timers_->timers) {
    timers_->sample_all(entry, false);
    timers_->schedule(entry);
  }
}

void PinSampling::stop() {
  timers_->edges.stop();
  for (auto& entry : timers_->timers) entry->fd.cancel();
  timers_->timers.clear();
}

}  // namespace mcpud::pins
