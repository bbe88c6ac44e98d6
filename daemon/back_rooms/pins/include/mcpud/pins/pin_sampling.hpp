// SPDX-License-Identifier: MIT
// Samples every input pin that has sampling configured, on its own interval,
// from the event loop (one timer per interval; a slow sensor's value comes from
// SensorReads' worker), and publishes the events samples cause.
#pragma once

#include <cstdint>
#include <memory>

namespace boost::asio {
class io_context;
}

namespace mcpud {
class EventHub;
}

namespace mcpud::pins {

class PinTable;
class SensorReads;
struct BoardPin;

// Publishes the events `pin`'s sampler queued after sequence number `since` as
// EventKind::PinEvent.
void publish_pin_events(const BoardPin& pin, std::uint64_t since, EventHub& events);

class PinSampling {
 public:
  // Borrows all four; they must outlive this object. Every event a sample
  // causes (threshold crossing, edge) is also published on `events`.
  PinSampling(boost::asio::io_context& io, PinTable& pins, SensorReads& reads, EventHub& events);
  ~PinSampling();
  PinSampling(const PinSampling&) = delete;
  PinSampling& operator=(const PinSampling&) = delete;

  // Takes a first sample of every sampled pin and starts the timers.
  void start();
  // Cancels every timer; safe to call twice.
  void stop();

 private:
  struct Timers;
  std::unique_ptr<Timers> timers_;
};

}  // namespace mcpud::pins
