// SPDX-License-Identifier: MIT
// Reconciling configured bridges; pin lookup across devices.
#include "mcpud/bridge/bridge_set.hpp"

#include <algorithm>

#include "mcpud/core/log.hpp"
#include "mcpud/io/udev_monitor.hpp"
#include "mcu_bridge.hpp"

namespace mcpud::bridge {

BridgeSet::BridgeSet(boost::asio::io_context& io, ToolRegistry& registry, EventHub& events)
    : io_(io), registry_(registry), events_(events) {}

BridgeSet::~BridgeSet() { stop_all(); }

void BridgeSet::reconcile(const std::vector<BridgeConfig>& configs) {
  std::erase_if(bridges_, [&](const auto& bridge) {
    const bool keep = std::find(configs.begin(), configs.end(), bridge->config()) != configs.end();
    if (!keep) {
      log::info("bridge", bridge->config().id, ": removed from the configuration");
      bridge->stop();
    }
    return !keep;
  });
  for (const auto& config : configs) {
    const bool running =
        std::any_of(bridges_.begin(), bridges_.end(), [&](const auto& b) { return b->config() == config; });
    if (running) continue;
    auto bridge = std::make_shared<McuBridge>(io_, config, registry_, events_);
    bridge->start();
    bridges_.push_back(std::move(bridge));
  }
  const bool any_serial = std::any_of(configs.begin(), configs.end(), [](const auto& c) { return !c.port.empty(); });
  if (any_serial && !udev_) {
    udev_ = io::UdevMonitor::create(io_, [this](std::string_view action, const std::string&) {
      if (action == "add") retry_serial_bridges();
    });
    if (!udev_) log::info("bridge", "no udev monitor; serial devices are found by periodic retries");
  }
}

void BridgeSet::stop_all() {
  for (auto& bridge : bridges_) bridge->stop();
  bridges_.clear();
  udev_.reset();
}

void BridgeSet::retry_serial_bridges() {
  for (auto& bridge : bridges_) {
    if (!bridge->config().port.empty()) bridge->retry_now();
  }
}

bool BridgeSet::discovery_settled() const {
  return std::all_of(bridges_.begin(), bridges_.end(), [](const auto& bridge) { return bridge->settled(); });
}

pins::BoardPin* BridgeSet::find_pin(std::string_view name) {
  for (auto& bridge : bridges_) {
    if (auto* pin = bridge->find_pin(name)) return pin;
  }
  return nullptr;
}

void BridgeSet::for_each_pin(const std::function<void(const pins::BoardPin&)>& visit) const {
  for (const auto& bridge : bridges_) bridge->for_each_pin(visit);
}

void BridgeSet::describe_pins(nlohmann::json& out) const {
  for (const auto& bridge : bridges_) bridge->describe_pins(out);
}

namespace {

// Refusals listed in a bridge's status; the count says how many there were.
constexpr std::size_t kListedRefusals = 16;

// "refused_count", and "refused" with one line each (names escaped already) when there are any.
void add_refusals(nlohmann::json& row, const std::vector<Refusal>& refused) {
  row["refused_count"] = refused.size();
  if (refused.empty()) return;
  auto& lines = row["refused"] = nlohmann::json::array();
  for (std::size_t i = 0; i < std::min(refused.size(), kListedRefusals); ++i) {
    lines.push_back(refused[i].kind + " '" + refused[i].name + "': " + refused[i].reason);
  }
}

}  // namespace

nlohmann::json BridgeSet::status(const ToolRegistry& registry) const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& bridge : bridges_) {
    const auto& config = bridge->config();
    const auto owner = bridge->owner();
    const auto tools = std::count_if(registry.tools().begin(), registry.tools().end(),
                                     [&](const auto& tool) { return tool->owner == owner; });
    nlohmann::json row = {{"id", config.id},
                          {"link", config.port.empty() ? "tcp " + config.tcp : "serial " + config.port},
                          {"online", bridge->ready()},
                          {"tools", tools},
                          {"last_error", bridge->last_failure()}};
    if (const auto next = bridge->next_attempt_ms()) row["next_attempt_ms"] = *next;
    if (const auto until = bridge->tools_kept_until_ms()) row["tools_kept_until_ms"] = *until;
    add_refusals(row, bridge->refused());
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace mcpud::bridge
