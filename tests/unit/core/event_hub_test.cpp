// SPDX-License-Identifier: MIT
#include "mcpud/core/event_hub.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace mcpud {
namespace {

Event pin_event(std::string pin) { return {EventKind::PinEvent, std::move(pin), nlohmann::json::object()}; }

TEST(EventHub, DeliversToEverySubscriberInOrderOfSubscription) {
  EventHub hub;
  std::vector<std::string> seen;
  auto a = hub.subscribe([&](const Event& e) { seen.push_back("a:" + e.source); });
  auto b = hub.subscribe([&](const Event& e) { seen.push_back("b:" + e.source); });
  hub.publish(pin_event("led"));
  EXPECT_EQ(seen, (std::vector<std::string>{"a:led", "b:led"}));
}

TEST(EventHub, DestroyingTheSubscriptionStopsDelivery) {
  EventHub hub;
  int calls = 0;
  {
    auto s = hub.subscribe([&](const Event&) { ++calls; });
    hub.publish(pin_event("x"));
  }
  hub.publish(pin_event("x"));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(hub.listener_count(), 0u);
}

TEST(EventHub, AListenerMayUnsubscribeAnotherDuringDelivery) {
  EventHub hub;
  int second_calls = 0;
  EventHub::Subscription second;
  auto first = hub.subscribe([&](const Event&) { second.reset(); });
  second = hub.subscribe([&](const Event&) { ++second_calls; });
  hub.publish(pin_event("x"));
  EXPECT_EQ(second_calls, 0);
}

TEST(EventHub, AListenerMayUnsubscribeItselfDuringDelivery) {
  EventHub hub;
  int calls = 0;
  std::optional<EventHub::Subscription> self;
  self = hub.subscribe([&](const Event&) {
    ++calls;
    self.reset();
  });
  hub.publish(pin_event("x"));
  hub.publish(pin_event("x"));
  EXPECT_EQ(calls, 1);
}

TEST(EventHub, ASubscriptionMayOutliveTheHub) {
  EventHub::Subscription s;
  {
    EventHub hub;
    s = hub.subscribe([](const Event&) {});
  }
  s.reset();  // must not touch the destroyed hub
  SUCCEED();
}

}  // namespace
}  // namespace mcpud
