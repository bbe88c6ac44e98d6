// SPDX-License-Identifier: MIT
// Batched live samples for subscribers of mcpu://samples/<pin>.
#include "mcpud/pins/sample_push.hpp"

#include "mcpud/core/event_hub.hpp"
#include "mcpud/pins/pin_table.hpp"

namespace mcpud::pins {

void SamplePush::add(const BoardPin& pin, double value, std::int64_t timestamp_ms, EventHub& events) {
  if (!events.wanted(EventKind::PinSampled)) {
    values_.clear();
    timestamps_.clear();
    return;
  }
  if (values_.size() < kMaxBatch) {
    values_.push_back(value);
    timestamps_.push_back(timestamp_ms);
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - last_push_ < kInterval) return;
  last_push_ = now;
  nlohmann::json data = {
      {"pin", pin.number()}, {"name", pin.name()}, {"values", values_}, {"timestamps_ms", timestamps_}};
  values_.clear();
  timestamps_.clear();
  events.publish({EventKind::PinSampled, pin.name(), std::move(data)});
}

}  // namespace mcpud::pins
