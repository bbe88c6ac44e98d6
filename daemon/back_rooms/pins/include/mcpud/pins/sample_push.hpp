// SPDX-License-Identifier: MIT
// Pushes a sampled pin's samples as EventKind::PinSampled batches (at most one
// every kInterval) while some subscriber wants them: live plots without polling.
// Nothing is kept or built while nobody does. Event loop only.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace mcpud {
class EventHub;
}

namespace mcpud::pins {

struct BoardPin;

class SamplePush {
 public:
  static constexpr auto kInterval = std::chrono::milliseconds(250);
  static constexpr std::size_t kMaxBatch = 1000;  // samples in one batch (fast pins)

  // Called after every sample of `pin`.
  void add(const BoardPin& pin, double value, std::int64_t timestamp_ms, EventHub& events);

 private:
  std::vector<double> values_;
  std::vector<std::int64_t> timestamps_;
  std::chrono::steady_clock::time_point last_push_;
};

}  // namespace mcpud::pins
