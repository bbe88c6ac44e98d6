// SPDX-License-Identifier: MIT
// Pushes mcpu://daemon/status to its subscribers: whatever the status shows
// that changes (a client, an uplink, a bridge, a listener) calls
// EventHub::touch_status, and this feed answers with one StatusChanged event
// carrying the whole status, coalesced to at most one per kMinInterval. It is
// the hub's status watcher, not a subscriber: nothing is called, timed or built
// while nobody is subscribed to the status. Event loop only.
#pragma once

#include <chrono>
#include <functional>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "mcpud/core/event_hub.hpp"

namespace mcpud::app {

class StatusFeed {
 public:
  static constexpr auto kMinInterval = std::chrono::milliseconds(250);  // between two pushes
  static constexpr auto kSettle = std::chrono::milliseconds(20);        // lets a burst of changes land first

  // Borrows `io` and `events` (until stop() or destruction); `status` builds the status when it is sent.
  StatusFeed(boost::asio::io_context& io, EventHub& events, std::function<nlohmann::json()> status);
  ~StatusFeed() { stop(); }
  StatusFeed(const StatusFeed&) = delete;
  StatusFeed& operator=(const StatusFeed&) = delete;

  // Drops a push that is waiting (at shutdown).
  void stop();

 private:
  void touched(std::string_view what);
  void push();

  EventHub& events_;
  std::function<nlohmann::json()> status_;
  boost::asio::steady_timer timer_;
  bool waiting_ = false;
  std::chrono::steady_clock::time_point last_push_{};
};

}  // namespace mcpud::app
