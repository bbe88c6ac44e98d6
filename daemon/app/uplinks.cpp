// SPDX-License-Identifier: MIT
// Starts and stops the configured uplinks.
#include "app/uplinks.hpp"

#include <stdexcept>

#include "config/mcp_config.hpp"
#include "mcpud/core/log.hpp"
#include "uplinks/assistant_uplink.hpp"
#include "uplinks/fleet_uplink.hpp"
#include "uplinks/services_uplink.hpp"

namespace mcpud::app {

Uplinks::Uplinks(Context context) : ctx_(std::move(context)) {}
Uplinks::~Uplinks() { close(); }

void Uplinks::reconcile() {
  reconcile_services();
  uplinks::reconcile_assistant_uplink(assistant_, ctx_.config.uplink.assistant,
                                      {ctx_.io, ctx_.registry, ctx_.engine, ctx_.events});
  reconcile_fleet();
}

void Uplinks::close() {
  if (services_) services_->stop();
  services_.reset();
  assistant_.reset();  // says goodbye
  if (fleet_) fleet_->close();
  fleet_.reset();
}

void Uplinks::reconcile_services() {
  const auto& wanted = ctx_.config.uplink.services;
  if (services_ && services_->config() == wanted) {
    services_->refresh_services();  // unchanged: the link stays up; [mcp] user_only_tools may have changed
    return;
  }
  if (services_) services_->stop();
  services_.reset();
  if (!wanted.enabled()) return;
  // Hidden from the AI service like from MCP clients that do not ask for user tools.
  const auto& config = ctx_.config;
  auto user_only = [&config](const Tool& tool) { return config::is_user_only(tool, config.mcp.mcp); };
  services_ = std::make_shared<uplinks::ServicesUplink>(
      uplinks::ServicesUplink::Context{ctx_.io, ctx_.registry, ctx_.events, std::move(user_only)}, wanted);
  services_->start();
}

std::vector<std::pair<std::string, std::string>> Uplinks::clients() const {
  std::vector<std::pair<std::string, std::string>> rows;
  if (services_ && services_->connected()) rows.emplace_back("services", services_->peer());
  if (assistant_) {
    if (auto row = assistant_->client_row()) rows.push_back(std::move(*row));
  }
  if (fleet_ && fleet_->connected()) rows.emplace_back("fleet", fleet_->peer());
  return rows;
}

void Uplinks::ask(const std::string& text, std::function<void(Result<std::string>)> reply) {
  if (!services_) {
    reply(std::unexpected(Error::domain(DomainError::UplinkNotConfigured,
                                        "no services uplink is configured ([uplink.services] server)")));
    return;
  }
  services_->ask(text, std::move(reply));
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

nlohmann::json Uplinks::status() const {
  nlohmann::json out = nlohmann::json::array();
  if (services_)
    out.push_back(
        {{"kind", "services"}, {"server", services_->config().server}, {"connected", services_->connected()}});
  if (fleet_) out.push_back({{"kind", "fleet"}, {"server", fleet_->peer()}, {"connected", fleet_->connected()}});
  if (assistant_) {
    auto row = assistant_->client_row();
    out.push_back({{"kind", "assistant"}, {"server", row ? row->second : ""}, {"connected", row.has_value()},
                   {"status", assistant_->status()}});
  }
  return out;
}

}  // namespace mcpud::app
