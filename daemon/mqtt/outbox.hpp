// SPDX-License-Identifier: MIT
// The bounded queue of messages published while the client is not connected:
// when full, a new message pushes out the oldest QoS 0 message; a full queue of
// QoS 1/2 messages refuses more. Plain data; single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

#include "mcpud/mqtt/options.hpp"

namespace mcpud::mqtt {

class Outbox {
 public:
  explicit Outbox(std::size_t capacity) : capacity_(capacity) {}

  // False when the message could not be queued (full of QoS 1/2 messages, or a
  // QoS 0 message into a queue with no QoS 0 message to push out).
  bool push(Message message, std::size_t in_flight = 0);
  std::deque<Message> take_all();

  std::size_t size() const { return queue_.size(); }
  std::uint64_t dropped() const { return dropped_; }

 private:
  bool drop_oldest_qos0();

  std::size_t capacity_;
  std::deque<Message> queue_;
  std::uint64_t dropped_ = 0;
};

}  // namespace mcpud::mqtt
