// SPDX-License-Identifier: MIT
// MQTT fleet mode: the device serves JSON-RPC (MCP/U and MCP) through a broker
// and announces itself there, so a host finds every board by subscribing to
// "<prefix>/+/info" and calls any of them without knowing its address. See
// FleetTopics for the topics. Each requester (one reply topic) is one rpc::Client
// to the engine, so MCP sessions and subscriptions work as on a socket.
// Event loop only; owned through shared_ptr because replies of asynchronous
// tools may come after close().
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "fleet_summaries.hpp"
#include "fleet_topics.hpp"
#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/mqtt/client.hpp"
#include "mcpud/uplinks/fleet_uplink_config.hpp"

namespace mcpud::uplinks {

struct FleetContext {
  boost::asio::io_context& io;
  rpc::Dispatcher& dispatcher;
  rpc::Engine& engine;
  EventHub& events;
  std::size_t max_request_bytes;  // the line transports' max_line_bytes
  std::size_t max_reply_bytes;    // their client_queue_bytes: past it a batch's results are REPLY_TOO_LARGE
  std::string device;             // resolved: [uplink.fleet] device, else the config's device name
  std::string version;
};

class FleetUplink : public std::enable_shared_from_this<FleetUplink> {
 public:
  // Throws std::runtime_error for settings libmosquitto rejects (unreadable TLS files).
  FleetUplink(FleetContext context, const FleetUplinkConfig& config);
  ~FleetUplink();
  FleetUplink(const FleetUplink&) = delete;
  FleetUplink& operator=(const FleetUplink&) = delete;

  void start();
  // Publishes status "offline" (retained), disconnects cleanly, stops reconnecting.
  void close();

  bool connected() const { return client_.connected(); }
  // When the next connection attempt to the broker is due (Unix ms), while waiting to retry.
  std::optional<std::int64_t> next_attempt_ms() const { return client_.next_attempt_ms(); }
  // "host:port mcpud/<device>": the broker and the device's topics.
  std::string peer() const;

 private:
  class Requester;
  struct Slot;

  void connected_to_broker();
  void on_request(const mqtt::Message& message);
  void serve(const mqtt::Message& message, std::string reply_topic);
  void refuse_busy(const mqtt::Message& message, const std::string& reply_topic);
  Requester& requester(const std::string& reply_topic);
  void publish_reply(const std::string& topic, const std::string& correlation, std::string payload);
  void publish_info();
  void on_event(const Event& event);

  FleetContext ctx_;
  FleetUplinkConfig config_;
  FleetTopics topics_;
  mqtt::Client client_;
  EventHub::Subscription events_;
  // The pin events it publishes, which their producers build only when wanted.
  EventHub::Interest pin_changes_;
  std::shared_ptr<FleetSummaries> summaries_;
  std::size_t in_flight_ = 0;
  // Requesters by reply topic, least recently used first in `recent_`.
  std::map<std::string, std::pair<std::shared_ptr<Requester>, std::list<std::string>::iterator>> requesters_;
  std::list<std::string> recent_;
  // Who the fleet's requesters are, as owners of what they open.
  std::shared_ptr<ClientIdentity> identity_ = std::make_shared<ClientIdentity>();
  bool closed_ = false;
};

}  // namespace mcpud::uplinks
