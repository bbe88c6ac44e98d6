// SPDX-License-Identifier: MIT
// Coalescing status changes into status pushes.
#include "status_feed.hpp"

#include <algorithm>

#include "mcpud/core/log.hpp"

namespace mcpud::app {

StatusFeed::StatusFeed(boost::asio::io_context& io, EventHub& events, std::function<nlohmann::json()> status)
    : events_(events), status_(std::move(status)), timer_(io) {
  events_.watch_status([this](std::string_view what) { touched(what); });
}

void StatusFeed::stop() {
  timer_.cancel();
  waiting_ = false;
  events_.watch_status(nullptr);
}

void StatusFeed::touched(std::string_view what) {
  if (waiting_) return;  // the push already waiting will show this change too
  log::debug("status", what, " changed; pushing the status to its subscribers");
  waiting_ = true;
  const auto earliest = last_push_ + kMinInterval;
  const auto now = std::chrono::steady_clock::now();
  timer_.expires_after(std::max<std::chrono::steady_clock::duration>(kSettle, earliest - now));
  timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    waiting_ = false;
    push();
  });
}

void StatusFeed::push() {
  if (!events_.wanted(EventKind::StatusChanged)) return;  // the last subscriber left meanwhile
  last_push_ = std::chrono::steady_clock::now();
  events_.publish({EventKind::StatusChanged, "daemon", status_(), nullptr});
}

}  // namespace mcpud::app
