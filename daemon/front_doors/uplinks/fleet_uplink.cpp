// SPDX-License-Identifier: MIT
// MQTT fleet mode: JSON-RPC through a broker, retained info and status, events.
#include "fleet_uplink.hpp"

#include "fleet_info.hpp"
#include "mcpud/core/log.hpp"

namespace mcpud::uplinks {

namespace {

constexpr const char* kLog = "fleet";
constexpr std::size_t kMaxRequesters = 256;  // reply topics remembered (MCP sessions); least recently used go

mqtt::Options client_options(const FleetUplinkConfig& c, const FleetTopics& topics, const std::string& device) {
  mqtt::Options o;
  o.host = c.host;
  o.port = c.port;
  o.client_id = "mcpud-" + device;
  o.version = c.mqtt5 ? mqtt::ProtocolVersion::v5 : mqtt::ProtocolVersion::v311;
  o.keepalive = std::chrono::seconds(c.keepalive_s);
  o.username = c.username;
  o.password = c.password;
  if (c.tls) o.tls = mqtt::TlsOptions{c.ca_file, "", c.cert_file, c.key_file, c.insecure_skip_verify};
  o.will = mqtt::WillOptions{topics.status(), "offline", 1, true};
  o.retry_ceiling = std::chrono::milliseconds(c.retry_max_ms);
  o.log_category = kLog;
  return o;
}

}  // namespace

// One requester (one reply topic) as the engine sees it: notifications it asked
// for (MCP resource updates, list_changed) are published to its reply topic.
class FleetUplink::Requester final : public rpc::Client {
 public:
  // Every requester is the fleet as one client: a host may ask from a new reply
  // topic each time, and still use the serial session it opened.
  Requester(std::weak_ptr<FleetUplink> uplink, std::string topic, std::shared_ptr<ClientIdentity> fleet)
      : uplink_(std::move(uplink)), topic_(std::move(topic)) {
    caller.door = "fleet";
    caller.peer = topic_;
    caller.identity = std::move(fleet);
  }
  void push(std::string message) override {
    if (auto uplink = uplink_.lock()) uplink->publish_reply(topic_, "", std::move(message));
  }

 private:
  std::weak_ptr<FleetUplink> uplink_;
  std::string topic_;
};

// Counts one request in flight for as long as the engine holds its responder
// (a notification's responder is dropped without being called).
struct FleetUplink::Slot {
  explicit Slot(std::weak_ptr<FleetUplink> uplink) : uplink(std::move(uplink)) {
    if (auto u = this->uplink.lock()) ++u->in_flight_;
  }
  ~Slot() {
    if (auto u = uplink.lock()) --u->in_flight_;
  }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;
  std::weak_ptr<FleetUplink> uplink;
};

FleetUplink::FleetUplink(FleetContext context, const FleetUplinkConfig& config)
    : ctx_(std::move(context)),
      config_(config),
      topics_(config.topic_prefix, ctx_.device),
      client_(ctx_.io, client_options(config, topics_, ctx_.device)) {}

FleetUplink::~FleetUplink() { close(); }

void FleetUplink::start() {
  std::weak_ptr<FleetUplink> weak = shared_from_this();
  client_.on_connect([weak] {
    if (auto self = weak.lock()) self->connected_to_broker();
  });
  client_.on_disconnect([weak](const std::string&) {
    if (auto self = weak.lock()) self->ctx_.events.touch_status("uplinks");
  });
  client_.on_message([weak](const mqtt::Message& message) {
    if (auto self = weak.lock()) self->on_request(message);
  });
  (void)client_.subscribe(topics_.request(), 1);
  (void)client_.subscribe(topics_.request_filter(), 1);
  events_ = ctx_.events.subscribe([weak](const Event& event) {
    if (auto self = weak.lock()) self->on_event(event);
  });
  pin_changes_ = ctx_.events.want(EventKind::PinChanged);
  summaries_ = std::make_shared<FleetSummaries>(
      ctx_.io, ctx_.dispatcher, std::chrono::seconds(config_.summary_interval_s),
      [weak](const std::string& pin, const nlohmann::json& summary) {
        auto self = weak.lock();
        if (!self || !self->client_.connected()) return;
        (void)self->client_.publish({self->topics_.events(pin), rpc::dump(summary), 0, false});
      });
  summaries_->start();
  log::info(kLog, "serving ", topics_.request(), " on ", config_.host, ":", config_.port,
            config_.mqtt5 ? " (MQTT 5)" : " (MQTT 3.1.1)");
  client_.start();
}

void FleetUplink::close() {
  if (closed_) return;
  closed_ = true;
  events_.reset();
  pin_changes_.reset();
  if (summaries_) summaries_->stop();
  if (client_.connected()) (void)client_.publish({topics_.status(), "offline", 1, true});
  client_.stop();
  requesters_.clear();
  recent_.clear();
}

std::string FleetUplink::peer() const {
  return config_.host + ":" + std::to_string(config_.port) + " " + config_.topic_prefix + "/" + ctx_.device;
}

void FleetUplink::connected_to_broker() {
  ctx_.events.touch_status("uplinks");
  (void)client_.publish({topics_.status(), "online", 1, true});
  publish_info();
}

void FleetUplink::publish_info() {
  std::weak_ptr<FleetUplink> weak = shared_from_this();
  InfoSources sources{ctx_.dispatcher, ctx_.device, ctx_.version, topics_, config_.mqtt5};
  collect_fleet_info(sources, [weak](nlohmann::json info) {
    auto self = weak.lock();
    if (!self || self->closed_) return;
    if (auto sent = self->client_.publish({self->topics_.info(), rpc::dump(info), 1, true}); !sent)
      log::warn(kLog, "info not published: ", sent.error());
  });
}

void FleetUplink::on_request(const mqtt::Message& message) {
  if (closed_) return;
  auto reply_topic = topics_.reply_topic(message);
  if (message.payload.size() > ctx_.max_request_bytes) {
    publish_reply(reply_topic, message.correlation_data, rpc::Engine::line_too_long(ctx_.max_request_bytes));
    return;
  }
  if (in_flight_ >= config_.max_in_flight) return refuse_busy(message, reply_topic);
  serve(message, std::move(reply_topic));
}

void FleetUplink::serve(const mqtt::Message& message, std::string reply_topic) {
  auto& client = requester(reply_topic);
  auto slot = std::make_shared<Slot>(weak_from_this());
  ctx_.engine.handle_line(
      message.payload, client,
      [slot, topic = std::move(reply_topic), correlation = message.correlation_data](std::string reply) {
        if (reply.empty()) return;  // cancelled: no response is published
        if (auto self = slot->uplink.lock()) self->publish_reply(topic, correlation, std::move(reply));
      });
}

void FleetUplink::refuse_busy(const mqtt::Message& message, const std::string& reply_topic) {
  // Rare: parse only to give the error the request's id.
  auto parsed = nlohmann::json::parse(message.payload, nullptr, false);
  const auto id = parsed.is_object() && parsed.contains("id") ? parsed["id"] : nlohmann::json();
  auto error = Error::domain(DomainError::Busy, "fleet: " + std::to_string(config_.max_in_flight) +
                                                    " requests in flight (uplink.fleet.max_in_flight); try again");
  publish_reply(reply_topic, message.correlation_data, rpc::error_response(id, error));
}

FleetUplink::Requester& FleetUplink::requester(const std::string& reply_topic) {
  if (auto found = requesters_.find(reply_topic); found != requesters_.end()) {
    recent_.splice(recent_.end(), recent_, found->second.second);
    return *found->second.first;
  }
  if (requesters_.size() >= kMaxRequesters) {
    requesters_.erase(recent_.front());
    recent_.pop_front();
  }
  auto position = recent_.insert(recent_.end(), reply_topic);
  auto requester = std::make_shared<Requester>(weak_from_this(), reply_topic, identity_);
  requester->reply_bytes_limit = ctx_.max_reply_bytes;  // one reply is one MQTT message, bounded as a line's
  auto& entry = requesters_[reply_topic] = {std::move(requester), position};
  return *entry.first;
}

void FleetUplink::publish_reply(const std::string& topic, const std::string& correlation, std::string payload) {
  mqtt::Message reply{topic, std::move(payload), 1, false, "", correlation};
  if (auto sent = client_.publish(std::move(reply)); !sent)
    log::debug(kLog, "reply to ", topic, " dropped: ", sent.error());
}

void FleetUplink::on_event(const Event& event) {
  if (event.kind == EventKind::ToolsChanged) {
    if (client_.connected()) publish_info();
    return;
  }
  const char* kind = event.kind == EventKind::PinEvent     ? "pin_event"
                     : event.kind == EventKind::PinChanged ? "pin_changed"
                                                           : nullptr;
  if (!kind) return;
  auto payload = event.data;
  payload["kind"] = kind;
  // QoS 0: a live feed; while disconnected only the newest events are kept.
  (void)client_.publish({topics_.events(event.source), rpc::dump(payload), 0, false});
}

}  // namespace mcpud::uplinks
