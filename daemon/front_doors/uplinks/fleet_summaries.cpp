// SPDX-License-Identifier: MIT
// Periodic sampling summaries for fleet mode.
#include "fleet_summaries.hpp"

namespace mcpud::uplinks {

FleetSummaries::FleetSummaries(boost::asio::io_context& io, rpc::Dispatcher& dispatcher, std::chrono::seconds interval,
                               Publish publish)
    : dispatcher_(dispatcher), interval_(interval), publish_(std::move(publish)), timer_(io) {}

void FleetSummaries::start() {
  if (interval_.count() <= 0 || running_) return;
  running_ = true;
  arm();
}

void FleetSummaries::stop() {
  running_ = false;
  timer_.cancel();
}

void FleetSummaries::arm() {
  timer_.expires_after(interval_);
  timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || !self->running_) return;
    self->publish_all();
    self->arm();
  });
}

void FleetSummaries::publish_all() {
  auto client = std::make_shared<rpc::DetachedClient>();
  // list_tools names the pins and what each one keeps.
  std::weak_ptr<FleetSummaries> weak = weak_from_this();
  dispatcher_.handle(*client, "list_tools", nlohmann::json::object(), [weak, client](ToolResult listed) {
    auto self = weak.lock();
    if (!self || !listed) return;
    for (const auto& pin : rpc::result_value(*listed).value("pins", nlohmann::json::array())) {
      if (!pin.value("capabilities", nlohmann::json::object()).value("summary", false)) continue;
      const auto name = pin.value("name", std::string());
      self->dispatcher_.handle(*client, "get_pin_summary", {{"pin", name}}, [weak, name](ToolResult summary) {
        auto self = weak.lock();
        if (!self || !summary) return;
        auto payload = std::move(*summary);
        payload["kind"] = "summary";
        self->publish_(name, std::move(payload));
      });
    }
  });
}

}  // namespace mcpud::uplinks
