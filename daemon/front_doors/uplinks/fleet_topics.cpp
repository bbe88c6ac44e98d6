// SPDX-License-Identifier: MIT
// Topic names of fleet mode.
#include "fleet_topics.hpp"

#include <algorithm>

namespace mcpud::uplinks {

std::string FleetTopics::events(const std::string& pin) const {
  std::string level = pin.empty() ? "_" : pin;
  std::replace_if(
      level.begin(), level.end(), [](char c) { return c == '/' || c == '+' || c == '#'; }, '_');
  return base_ + "/events/" + level;
}

std::string FleetTopics::reply_topic(const mqtt::Message& message) const {
  if (!message.response_topic.empty()) return message.response_topic;
  const auto per_client = request() + "/";
  if (message.topic.size() > per_client.size() && message.topic.starts_with(per_client))
    return reply_fallback(message.topic.substr(per_client.size()));
  return default_reply();
}

}  // namespace mcpud::uplinks
