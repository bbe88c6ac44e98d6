// SPDX-License-Identifier: MIT
// The bounded queue of messages published while disconnected.
#include "outbox.hpp"

#include <algorithm>
#include <utility>

namespace mcpud::mqtt {

bool Outbox::push(Message message, std::size_t in_flight) {
  if (queue_.size() + in_flight >= capacity_ && !drop_oldest_qos0()) {
    ++dropped_;
    return false;
  }
  queue_.push_back(std::move(message));
  return true;
}

std::deque<Message> Outbox::take_all() { return std::exchange(queue_, {}); }

bool Outbox::drop_oldest_qos0() {
  const auto oldest = std::find_if(queue_.begin(), queue_.end(), [](const Message& m) { return m.qos == 0; });
  if (oldest == queue_.end()) return false;
  queue_.erase(oldest);
  ++dropped_;
  return true;
}

}  // namespace mcpud::mqtt
