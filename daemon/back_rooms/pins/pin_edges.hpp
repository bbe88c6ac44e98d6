// SPDX-License-Identifier: MIT
// Hardware edge events of GPIO input lines: each line's event fd is watched by
// the event loop (no thread, no polling); edges go to the pin's sampler and are
// published as pin events, like sampled edges.
#pragma once

#include <memory>
#include <vector>

#include "mcpud/pins/pin_sampling.hpp"  // the part of sampling these edges feed

namespace mcpud::pins {

class PinEdges {
 public:
  // Borrows all three; they must outlive this object.
  PinEdges(boost::asio::io_context& io, PinTable& pins, EventHub& events);
  ~PinEdges();
  PinEdges(const PinEdges&) = delete;
  PinEdges& operator=(const PinEdges&) = delete;

  // Starts watching every pin whose input reports edges.
  void start();
  // Stops watching; safe to call twice.
  void stop();

 private:
  struct Watch;
  void wait(const std::shared_ptr<Watch>& watch);
  void read(const std::shared_ptr<Watch>& watch);

  boost::asio::io_context& io_;
  PinTable& pins_;
  EventHub& events_;
  std::vector<std::shared_ptr<Watch>> watches_;
};

}  // namespace mcpud::pins
