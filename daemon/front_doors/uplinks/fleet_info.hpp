// SPDX-License-Identifier: MIT
// The retained "<prefix>/<device>/info" document of fleet mode: what get_info
// and list_tools answer, plus the topics and protocol to reach the device, so a
// host that subscribed to "<prefix>/+/info" knows every board and how to call it.
// Plain data and functions without state; any thread.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "fleet_topics.hpp"
#include "mcpud/core/dispatcher.hpp"

namespace mcpud::uplinks {

struct InfoSources {
  rpc::Dispatcher& dispatcher;
  std::string device;
  std::string version;
  FleetTopics topics;
  bool mqtt5 = true;
};

// Asks get_info and list_tools through the dispatcher (as any client would) and
// calls `done` once with {device, version, mqtt_version, topics:{...}, info,
// tools, pins}. A method that fails leaves its part out and says why in "errors".
void collect_fleet_info(const InfoSources& sources, std::function<void(nlohmann::json)> done);

}  // namespace mcpud::uplinks
