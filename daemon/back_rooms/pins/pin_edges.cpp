// SPDX-License-Identifier: MIT
// Watching GPIO event fds on the event loop and feeding edges to the samplers.
#include "pin_edges.hpp"

#include <time.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "mcpud/core/log.hpp"
#include "mcpud/pins/pin_sampling.hpp"
#include "mcpud/pins/pin_table.hpp"

namespace mcpud::pins {
namespace {

std::int64_t clock_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// Line event timestamps are CLOCK_MONOTONIC on current kernels (CLOCK_REALTIME on
// very old ones); samples carry wall-clock milliseconds.
std::int64_t wall_ms(std::int64_t event_ns) {
  const auto mono = clock_ns(CLOCK_MONOTONIC);
  const auto real = clock_ns(CLOCK_REALTIME);
  constexpr std::int64_t kHour = 3'600'000'000'000;
  const bool monotonic = event_ns > mono - kHour && event_ns <= mono + kHour;
  return (monotonic ? event_ns + (real - mono) : event_ns) / 1'000'000;
}

}  // namespace

struct PinEdges::Watch {
  BoardPin* pin;
  boost::asio::posix::stream_descriptor fd;  // a dup of the line's event fd
};

PinEdges::PinEdges(boost::asio::io_context& io, PinTable& pins, EventHub& events)
    : io_(io), pins_(pins), events_(events) {}

PinEdges::~PinEdges() { stop(); }

void PinEdges::start() {
  for (auto& pin : pins_.pins()) {
    if (!pin->edges || !pin->sampler) continue;
    const int fd = ::dup(pin->edges->event_fd());
    if (fd < 0) {
      log::error("pins", pin->name(), ": cannot watch edge events: ", std::strerror(errno));
      continue;
    }
    watches_.push_back(std::make_shared<Watch>(Watch{pin.get(), boost::asio::posix::stream_descriptor(io_, fd)}));
    wait(watches_.back());
  }
}

void PinEdges::stop() {
  for (auto& watch : watches_) {
    boost::system::error_code ignored;
    watch->fd.close(ignored);  // cancels the wait; its handler sees operation_aborted
  }
  watches_.clear();
}

void PinEdges::wait(const std::shared_ptr<Watch>& watch) {
  // A wait that had already completed when stop() closed its fd still runs, with
  // success: it must find its watch gone rather than read a pin freed since.
  watch->fd.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                       [this, weak = std::weak_ptr(watch)](boost::system::error_code ec) {
                         auto alive = weak.lock();
                         if (ec || !alive) return;  // closed by stop()
                         read(alive);
                       });
}

void PinEdges::read(const std::shared_ptr<Watch>& watch) {
  BoardPin& pin = *watch->pin;
  auto edges = pin.edges->read_events();
  if (!edges) {
    // A line that cannot be read any more would wake the loop forever: stop watching it.
    log::error("pins", pin.name(), ": edge events stopped: ", edges.error().message);
    return;
  }
  const auto before = pin.sampler->events().last_seq();
  for (const auto& edge : *edges) pin.sampler->add_edge(edge.rising, wall_ms(edge.timestamp_ns));
  publish_pin_events(pin, before, events_);
  wait(watch);
}

}  // namespace mcpud::pins
