// SPDX-License-Identifier: MIT
// The periodic sampling summaries of fleet mode: every `interval`, asks
// get_pin_summary (through the dispatcher, as a client would) for each pin whose
// summary is enabled and hands each result, tagged {kind:"summary"}, to the
// publisher. Off (no timer, no wake-ups) with an interval of zero.
// Event loop only; owned through shared_ptr (its timer keeps it alive).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "mcpud/core/dispatcher.hpp"

namespace mcpud::uplinks {

class FleetSummaries : public std::enable_shared_from_this<FleetSummaries> {
 public:
  // `publish(pin name, summary)`.
  using Publish = std::function<void(const std::string& pin, nlohmann::json summary)>;

  FleetSummaries(boost::asio::io_context& io, rpc::Dispatcher& dispatcher, std::chrono::seconds interval,
                 Publish publish);

  void start();
  void stop();
  // One round now: every summary-enabled pin (used by the timer).
  void publish_all();

 private:
  void arm();

  rpc::Dispatcher& dispatcher_;
  std::chrono::seconds interval_;
  Publish publish_;
  boost::asio::steady_timer timer_;
  bool running_ = false;
};

}  // namespace mcpud::uplinks
