// SPDX-License-Identifier: MIT
// The voice-assistant protocol over MQTT: one persistent broker connection
// (mqtt::Client, reconnecting on its own) that outlives sessions, and for each
// session a MessageLink that publishes to the device's topic and receives what
// the server publishes on the reply topic. A session's link opens once the
// broker connection is up and closes when it drops. Event loop only.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "mcpud/mqtt/options.hpp"
#include "message_link.hpp"

namespace mcpud::uplinks {

// Filled from [uplink.assistant] by the assistant uplink.
struct MqttLinkOptions {
  mqtt::Options client;
  std::string publish_topic;
  std::string reply_topic;
  int qos{};
  std::size_t max_message_bytes{};
};

class MqttChannel {
 public:
  // Starts connecting to the broker. Throws std::runtime_error for options the
  // MQTT library refuses (e.g. an unreadable CA file).
  MqttChannel(boost::asio::io_context& io, MqttLinkOptions options);
  // Flushes what sessions published (a goodbye), then disconnects cleanly.
  ~MqttChannel();
  MqttChannel(const MqttChannel&) = delete;
  MqttChannel& operator=(const MqttChannel&) = delete;

  // The link of a new session; a previous session's link is closed first.
  std::shared_ptr<MessageLink> link();
  // "mqtt://host:port/<publish topic>"
  const std::string& peer() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace mcpud::uplinks
