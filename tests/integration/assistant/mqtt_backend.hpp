// SPDX-License-Identifier: MIT
// The voice-assistant backend's side of the MQTT variant for the tests: an
// independent libmosquitto client (its own network thread) that listens on the
// device's publish topic and answers on the device's reply topic.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>

#include "assistant/ws_backend.hpp"

struct mosquitto;
struct mosquitto_message;

namespace mcpud::it {

class MqttBackend final : public MessageConnection {
 public:
  struct Login {
    std::string ca_file;  // non-empty: TLS, the broker verified with this CA
    std::string username;
    std::string password;
  };

  // Connects to the broker on 127.0.0.1:`port` and subscribes to `device_topic`
  // (again after every reconnection); replies go to `reply_topic`.
  MqttBackend(int port, std::string device_topic, std::string reply_topic, const Login& login = {});
  ~MqttBackend() override;
  MqttBackend(const MqttBackend&) = delete;
  MqttBackend& operator=(const MqttBackend&) = delete;

  // Subscriptions acknowledged so far (one per connection to the broker).
  int subscriptions();
  // True once more than `before` subscriptions were acknowledged.
  bool wait_subscribed(int before = 0, Deadline deadline = 10s);
  void send(std::string text) override;  // QoS 1 to the reply topic
  std::optional<json> receive(Deadline deadline = 10s) override;

 private:
  static void on_connect(mosquitto*, void* self, int rc);
  static void on_subscribe(mosquitto*, void* self, int, int, const int*);
  static void on_message(mosquitto*, void* self, const mosquitto_message* message);

  std::string device_topic_;
  std::string reply_topic_;
  mosquitto* handle_ = nullptr;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> inbox_;
  int subscriptions_ = 0;
};

}  // namespace mcpud::it
