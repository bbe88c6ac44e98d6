// SPDX-License-Identifier: MIT
// A test's own MQTT client: libmosquitto with its own network thread (unlike
// mcpud's client on Asio), collecting every message it receives so a test can
// wait for the one it expects.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "support/deadline.hpp"

struct mosquitto;

namespace mcpud::it {

struct MqttMessage {
  std::string topic;
  std::string payload;
  bool retain = false;
  std::string correlation_data;  // MQTT 5 only
};

class MqttPeer {
 public:
  // Connects (MQTT 5 unless `mqtt5` is false) and waits for the CONNACK; fails the test on timeout.
  MqttPeer(int port, const std::string& client_id, bool mqtt5 = true, Deadline deadline = 10s);
  ~MqttPeer();
  MqttPeer(const MqttPeer&) = delete;
  MqttPeer& operator=(const MqttPeer&) = delete;

  bool connected() const;
  void subscribe(const std::string& filter);  // QoS 1; waits for the SUBACK
  // QoS 1; `response_topic` and `correlation` only under MQTT 5.
  void publish(const std::string& topic, const std::string& payload, const std::string& response_topic = "",
               const std::string& correlation = "", bool retain = false);

  // The first message received so far (or until the deadline) that matches.
  std::optional<MqttMessage> wait_for(const std::function<bool(const MqttMessage&)>& match, Deadline deadline = 10s);
  std::optional<MqttMessage> wait_for_topic(const std::string& topic, Deadline deadline = 10s);
  std::vector<MqttMessage> messages() const;
  void clear();

 private:
  mosquitto* handle_ = nullptr;
  bool mqtt5_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<MqttMessage> received_;
  bool connected_ = false;
  int subacks_ = 0;
};

}  // namespace mcpud::it
