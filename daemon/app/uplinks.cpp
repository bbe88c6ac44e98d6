// SPDX-License-Identifier: MIT
// Starts and stops the configured uplinks.
#include "app/uplinks.hpp"

#include <stdexcept>

#include "mcpud/core/log.hpp"
#include "uplinks/fleet_uplink.hpp"

namespace mcpud::app {

Uplinks::Uplinks(Context context) : ctx_(std::move(context)) {}
Uplinks::~Uplinks() { close(); }

void Uplinks::reconcile() { reconcile_fleet(); }

void Uplinks::close() {
  if (fleet_) fleet_->close();
  fleet_.reset();
}

std::vector<std::pair<std::string, std::string>> Uplinks::clients() const {
  std::vector<std::pair<std::string, std::string>> out;
  if (fleet_ && fleet_->connected()) out.emplace_back("fleet", fleet_->peer());
  return out;
}

void Uplinks::reconcile_fleet() {
  const auto& wanted = ctx_.config.uplink.fleet;
  const auto device = wanted.device.empty() ? ctx_.config.device : wanted.device;
  if (fleet_ && wanted == fleet_config_ && device == fleet_device_) return;
  if (fleet_) fleet_->close();
  fleet_.reset();
  fleet_config_ = wanted;
  fleet_device_ = device;
  if (!wanted.enabled()) return;
  if (!config::valid_topic_segment(device)) {
    log::error("fleet", "uplink.fleet.device: the device name '", device,
               "' cannot be an MQTT topic level (no '/', '+' or '#'); set uplink.fleet.device");
    return;
  }
  try {
    uplinks::FleetContext context{ctx_.io, ctx_.dispatcher, ctx_.engine, ctx_.events, ctx_.limits.max_line_bytes,
                                  device,  ctx_.version};
    fleet_ = std::make_shared<uplinks::FleetUplink>(std::move(context), wanted);
    fleet_->start();
  } catch (const std::exception& e) {
    log::error("fleet", "not started: ", e.what());
  }
}

}  // namespace mcpud::app
