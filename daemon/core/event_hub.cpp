// SPDX-License-Identifier: MIT
// Publish/subscribe for daemon events, safe against (un)subscribing while publishing.
#include "mcpud/core/event_hub.hpp"

#include <vector>

namespace mcpud {

std::string_view event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::ToolsChanged:
      return "tools_changed";
    case EventKind::PinEvent:
      return "pin_event";
    case EventKind::PinChanged:
      return "pin_changed";
    case EventKind::SerialData:
      return "serial_data";
    case EventKind::ToolPolled:
      return "tool_polled";
    case EventKind::Log:
      return "log";
    case EventKind::ToolCalled:
      return "tool_called";
    case EventKind::LogLine:
      return "log_line";
    case EventKind::PinSampled:
      return "pin_sampled";
    case EventKind::StatusChanged:
      return "status_changed";
    case EventKind::ResourcesChanged:
      return "resources_changed";
    case EventKind::BusTransfer:
      return "bus_transfer";
    case EventKind::SafetyAction:
      return "safety_action";
  }
  return "unknown";
}

void EventHub::Subscription::reset() {
  if (auto listeners = listeners_.lock()) listeners->erase(id_);
  listeners_.reset();
}

EventHub::Interest& EventHub::Interest::operator=(Interest&& other) noexcept {
  if (this != &other) {
    reset();
    counts_ = std::move(other.counts_);
    kind_ = other.kind_;
    other.counts_.reset();
  }
  return *this;
}

void EventHub::Interest::reset() {
  if (auto counts = counts_.lock()) --(*counts)[static_cast<std::size_t>(kind_)];
  counts_.reset();
}

EventHub::Interest EventHub::want(EventKind kind) {
  ++(*interest_)[static_cast<std::size_t>(kind)];
  return Interest(interest_, kind);
}

EventHub::Subscription EventHub::subscribe(Listener listener) {
  const auto id = next_id_++;
  listeners_->emplace(id, std::move(listener));
  return Subscription(listeners_, id);
}

void EventHub::publish(const Event& event) {
  // Ids first: a listener may remove others; those must not be called afterwards.
  std::vector<std::uint64_t> ids;
  ids.reserve(listeners_->size());
  for (const auto& [id, listener] : *listeners_) ids.push_back(id);
  for (const auto id : ids) {
    const auto it = listeners_->find(id);
    if (it == listeners_->end()) continue;
    auto listener = it->second;  // a copy: the listener may unsubscribe itself
    listener(event);
  }
}

}  // namespace mcpud
