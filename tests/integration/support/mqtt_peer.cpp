// SPDX-License-Identifier: MIT
// A threaded libmosquitto client for tests.
#include "support/mqtt_peer.hpp"

#include <mosquitto.h>
#include <mqtt_protocol.h>

#include <cstdlib>

#include <gtest/gtest.h>

namespace mcpud::it {

MqttPeer::MqttPeer(int port, const std::string& client_id, bool mqtt5, Deadline deadline) : mqtt5_(mqtt5) {
  static const int initialised = mosquitto_lib_init();
  (void)initialised;
  handle_ = mosquitto_new(client_id.c_str(), true, this);
  mosquitto_int_option(handle_, MOSQ_OPT_PROTOCOL_VERSION, mqtt5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311);
  mosquitto_connect_v5_callback_set(handle_, [](mosquitto*, void* self, int rc, int, const mosquitto_property*) {
    auto* peer = static_cast<MqttPeer*>(self);
    std::lock_guard lock(peer->mutex_);
    peer->connected_ = rc == 0;
    peer->changed_.notify_all();
  });
  mosquitto_disconnect_v5_callback_set(handle_, [](mosquitto*, void* self, int, const mosquitto_property*) {
    auto* peer = static_cast<MqttPeer*>(self);
    std::lock_guard lock(peer->mutex_);
    peer->connected_ = false;
  });
  mosquitto_subscribe_v5_callback_set(handle_,
                                      [](mosquitto*, void* self, int, int, const int*, const mosquitto_property*) {
                                        auto* peer = static_cast<MqttPeer*>(self);
                                        std::lock_guard lock(peer->mutex_);
                                        ++peer->subacks_;
                                        peer->changed_.notify_all();
                                      });
  mosquitto_message_v5_callback_set(handle_, [](mosquitto*, void* self, const mosquitto_message* m,
                                                const mosquitto_property* properties) {
    auto* peer = static_cast<MqttPeer*>(self);
    MqttMessage message{m->topic, std::string(static_cast<const char*>(m->payload), m->payloadlen), m->retain, ""};
    void* data = nullptr;
    uint16_t length = 0;
    if (properties && mosquitto_property_read_binary(properties, MQTT_PROP_CORRELATION_DATA, &data, &length, false)) {
      message.correlation_data.assign(static_cast<const char*>(data), length);
      std::free(data);
    }
    std::lock_guard lock(peer->mutex_);
    peer->received_.push_back(std::move(message));
    peer->changed_.notify_all();
  });
  EXPECT_EQ(mosquitto_connect(handle_, "127.0.0.1", port, 10), MOSQ_ERR_SUCCESS);
  EXPECT_EQ(mosquitto_loop_start(handle_), MOSQ_ERR_SUCCESS);
  std::unique_lock lock(mutex_);
  EXPECT_TRUE(changed_.wait_until(lock, deadline.at(), [&] { return connected_; })) << client_id << " not connected";
}

MqttPeer::~MqttPeer() {
  mosquitto_disconnect(handle_);
  mosquitto_loop_stop(handle_, true);
  mosquitto_destroy(handle_);
}

bool MqttPeer::connected() const {
  std::lock_guard lock(mutex_);
  return connected_;
}

void MqttPeer::subscribe(const std::string& filter) {
  std::unique_lock lock(mutex_);
  const int before = subacks_;
  lock.unlock();
  EXPECT_EQ(mosquitto_subscribe(handle_, nullptr, filter.c_str(), 1), MOSQ_ERR_SUCCESS);
  lock.lock();
  EXPECT_TRUE(changed_.wait_for(lock, std::chrono::seconds(10), [&] { return subacks_ > before; })) << filter;
}

void MqttPeer::publish(const std::string& topic, const std::string& payload, const std::string& response_topic,
                       const std::string& correlation, bool retain) {
  mosquitto_property* properties = nullptr;
  if (mqtt5_ && !response_topic.empty())
    mosquitto_property_add_string(&properties, MQTT_PROP_RESPONSE_TOPIC, response_topic.c_str());
  if (mqtt5_ && !correlation.empty())
    mosquitto_property_add_binary(&properties, MQTT_PROP_CORRELATION_DATA, correlation.data(),
                                  static_cast<uint16_t>(correlation.size()));
  EXPECT_EQ(mosquitto_publish_v5(handle_, nullptr, topic.c_str(), static_cast<int>(payload.size()), payload.data(), 1,
                                 retain, properties),
            MOSQ_ERR_SUCCESS);
  mosquitto_property_free_all(&properties);
}

std::optional<MqttMessage> MqttPeer::wait_for(const std::function<bool(const MqttMessage&)>& match, Deadline deadline) {
  std::unique_lock lock(mutex_);
  std::optional<MqttMessage> found;
  changed_.wait_until(lock, deadline.at(), [&] {
    for (const auto& m : received_) {
      if (match(m)) {
        found = m;
        return true;
      }
    }
    return false;
  });
  return found;
}

std::optional<MqttMessage> MqttPeer::wait_for_topic(const std::string& topic, Deadline deadline) {
  return wait_for([&](const MqttMessage& m) { return m.topic == topic; }, deadline);
}

std::vector<MqttMessage> MqttPeer::messages() const {
  std::lock_guard lock(mutex_);
  return received_;
}

void MqttPeer::clear() {
  std::lock_guard lock(mutex_);
  received_.clear();
}

}  // namespace mcpud::it
