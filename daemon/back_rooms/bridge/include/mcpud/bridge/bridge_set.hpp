// SPDX-License-Identifier: MIT
// Every configured MCU bridge: started, stopped and kept across reloads (an
// unchanged bridge stays connected), the bridged devices' pins for the pin
// tools, and a udev monitor that retries serial bridges when a tty appears.
// Single-threaded (event loop only).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "mcpud/bridge/bridge_config.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/pins/pin_table.hpp"

namespace mcpud::io {
class UdevMonitor;
}

namespace mcpud::bridge {

class McuBridge;

class BridgeSet final : public pins::ForeignPins {
 public:
  // Borrows all three; they must outlive this set.
  BridgeSet(boost::asio::io_context& io, ToolRegistry& registry, EventHub& events);
  ~BridgeSet() override;
  BridgeSet(const BridgeSet&) = delete;
  BridgeSet& operator=(const BridgeSet&) = delete;

  // Starts bridges that are new in `configs`, stops those no longer there, and
  // restarts those whose settings changed; the rest are left alone.
  void reconcile(const std::vector<BridgeConfig>& configs);
  // Stops every bridge (their tools are removed).
  void stop_all();

  // Whether every bridge has finished its first discovery (ready, or failed and waiting).
  bool discovery_settled() const;

  pins::BoardPin* find_pin(std::string_view name) override;
  void for_each_pin(const std::function<void(const pins::BoardPin&)>& visit) const override;
  // Appends every connected device's pins to an MCP/U pin registry array.
  void describe_pins(nlohmann::json& out) const;
  // One entry per configured bridge: {id, link, online, tools, last_error,
  // next_attempt_ms?, tools_kept_until_ms?, refused_count, refused?}; `refused`
  // holds a line per tool or pin the device listed but mcpud did not export
  // (the first 16), its name escaped.
  nlohmann::json status(const ToolRegistry& registry) const;

 private:
  void retry_serial_bridges();

  boost::asio::io_context& io_;
  ToolRegistry& registry_;
  EventHub& events_;
  std::vector<std::shared_ptr<McuBridge>> bridges_;
  std::unique_ptr<io::UdevMonitor> udev_;
};

}  // namespace mcpud::bridge
