// SPDX-License-Identifier: MIT
// Starts and stops the configured uplinks.
#include "mcpud/uplinks/uplink_set.hpp"

#include <stdexcept>

#include "assistant_uplink.hpp"
#include "fleet_uplink.hpp"
#include "mcpud/core/log.hpp"
#include "services_uplink.hpp"

namespace mcpud::uplinks {

UplinkSet::UplinkSet(Context context) : ctx_(std::move(context)) {}
UplinkSet::~UplinkSet() { close(); }

void UplinkSet::reconcile() {
  reconcile_services();
  reconcile_assistant_uplink(assistant_, ctx_.config.assistant, {ctx_.io, ctx_.registry, ctx_.engine, ctx_.events});
  reconcile_fleet();
}

void UplinkSet::close() {
  if (services_) services_->stop();
  services_.reset();
  assistant_.reset();  // says goodbye
  if (fleet_) fleet_->close();
  fleet_.reset();
}

void UplinkSet::reconcile_services() {
  const auto& wanted = ctx_.config.services;
  if (services_ && services_->config() == wanted) {
    services_->refresh_services();  // unchanged: the link stays up; [mcp] user_only_tools may have changed
    return;
  }
  if (services_) services_->stop();
  services_.reset();
  if (!wanted.enabled()) return;
  // Hidden from the AI service like from MCP clients that do not ask for user tools.
  services_ = std::make_shared<ServicesUplink>(ServicesUplink::Context{ctx_.io, ctx_.registry, ctx_.events}, wanted);
  services_->start();
}

std::vector<std::pair<std::string, std::string>> UplinkSet::clients() const {
  std::vector<std::pair<std::string, std::string>> rows;
  if (services_ && services_->connected()) rows.emplace_back("services", services_->peer());
  if (assistant_) {
    if (auto row = assistant_->client_row()) rows.push_back(std::move(*row));
  }
  if (fleet_ && fleet_->connected()) rows.emplace_back("fleet", fleet_->peer());
  return rows;
}

void UplinkSet::ask(const std::string& text, std::function<void(Result<std::string>)> reply) {
  if (!services_) {
    reply(std::unexpected(Error::domain(DomainError::UplinkNotConfigured,
                                        "no services uplink is configured ([uplink.services] server)")));
    return;
  }
  services_->ask(text, std::move(reply));
}

void UplinkSet::reconcile_fleet() {
  const auto& wanted = ctx_.config.fleet;
  const auto device = wanted.device.empty() ? ctx_.device() : wanted.device;
  if (fleet_ && wanted == fleet_config_ && device == fleet_device_) return;
  if (fleet_) fleet_->close();
  fleet_.reset();
  fleet_config_ = wanted;
  fleet_device_ = device;
  if (!wanted.enabled()) return;
  if (!valid_topic_segment(device)) {
    log::error("fleet", "uplink.fleet.device: the device name '", device,
               "' cannot be an MQTT topic level (no '/', '+' or '#'); set uplink.fleet.device");
    return;
  }
  try {
    const auto limits = ctx_.client_limits();
    FleetContext context{
        ctx_.io, ctx_.dispatcher, ctx_.engine, ctx_.events, limits.max_request_bytes, limits.max_reply_bytes,
        device,  ctx_.version};
    fleet_ = std::make_shared<FleetUplink>(std::move(context), wanted);
    fleet_->start();
  } catch (const std::exception& e) {
    log::error("fleet", "not started: ", e.what());
  }
}

namespace {
// A retrying uplink says when it dials next.
nlohmann::json with_next_attempt(nlohmann::json row, std::optional<std::int64_t> next_attempt_ms) {
  if (next_attempt_ms) row["next_attempt_ms"] = *next_attempt_ms;
  return row;
}
}  // namespace

nlohmann::json UplinkSet::status() const {
  nlohmann::json out = nlohmann::json::array();
  if (services_)
    out.push_back(with_next_attempt(
        {{"kind", "services"}, {"server", services_->config().server}, {"connected", services_->connected()}},
        services_->next_attempt_ms()));
  if (fleet_)
    out.push_back(with_next_attempt({{"kind", "fleet"}, {"server", fleet_->peer()}, {"connected", fleet_->connected()}},
                                    fleet_->next_attempt_ms()));
  if (assistant_) {
    auto row = assistant_->client_row();
    out.push_back(with_next_attempt({{"kind", "assistant"},
                                     {"server", row ? row->second : ""},
                                     {"connected", row.has_value()},
                                     {"status", assistant_->status()}},
                                    assistant_->next_attempt_ms()));
  }
  return out;
}

}  // namespace mcpud::uplinks
