// SPDX-License-Identifier: MIT
// The test MQTT backend on libmosquitto's threaded interface.
#include "assistant/mqtt_backend.hpp"

#include <mosquitto.h>

#include <gtest/gtest.h>

namespace mcpud::it {

MqttBackend::MqttBackend(int port, std::string device_topic, std::string reply_topic, const Login& login)
    : device_topic_(std::move(device_topic)), reply_topic_(std::move(reply_topic)) {
  mosquitto_lib_init();
  handle_ = mosquitto_new("assistant-backend", true, this);
  mosquitto_connect_callback_set(handle_, &MqttBackend::on_connect);
  mosquitto_subscribe_callback_set(handle_, &MqttBackend::on_subscribe);
  mosquitto_message_callback_set(handle_, &MqttBackend::on_message);
  mosquitto_reconnect_delay_set(handle_, 1, 1, false);
  if (!login.username.empty()) mosquitto_username_pw_set(handle_, login.username.c_str(), login.password.c_str());
  if (!login.ca_file.empty()) {
    EXPECT_EQ(mosquitto_tls_set(handle_, login.ca_file.c_str(), nullptr, nullptr, nullptr, nullptr), MOSQ_ERR_SUCCESS);
  }
  EXPECT_EQ(mosquitto_connect(handle_, "127.0.0.1", port, 30), MOSQ_ERR_SUCCESS);
  EXPECT_EQ(mosquitto_loop_start(handle_), MOSQ_ERR_SUCCESS);
}

MqttBackend::~MqttBackend() {
  mosquitto_disconnect(handle_);
  mosquitto_loop_stop(handle_, true);
  mosquitto_destroy(handle_);
}

void MqttBackend::on_connect(mosquitto* handle, void* self, int rc) {
  auto* backend = static_cast<MqttBackend*>(self);
  if (rc == 0) mosquitto_subscribe(handle, nullptr, backend->device_topic_.c_str(), 1);
}

void MqttBackend::on_subscribe(mosquitto*, void* self, int, int, const int*) {
  auto* backend = static_cast<MqttBackend*>(self);
  std::lock_guard lock(backend->mutex_);
  ++backend->subscriptions_;
  backend->changed_.notify_all();
}

void MqttBackend::on_message(mosquitto*, void* self, const mosquitto_message* message) {
  auto* backend = static_cast<MqttBackend*>(self);
  std::lock_guard lock(backend->mutex_);
  backend->inbox_.emplace_back(static_cast<const char*>(message->payload),
                               static_cast<std::size_t>(message->payloadlen));
  backend->changed_.notify_all();
}

int MqttBackend::subscriptions() {
  std::lock_guard lock(mutex_);
  return subscriptions_;
}

bool MqttBackend::wait_subscribed(int before, Deadline deadline) {
  std::unique_lock lock(mutex_);
  return changed_.wait_until(lock, deadline.at(), [&] { return subscriptions_ > before; });
}

void MqttBackend::send(std::string text) {
  EXPECT_EQ(
      mosquitto_publish(handle_, nullptr, reply_topic_.c_str(), static_cast<int>(text.size()), text.data(), 1, false),
      MOSQ_ERR_SUCCESS);
}

std::optional<json> MqttBackend::receive(Deadline deadline) {
  std::unique_lock lock(mutex_);
  if (!changed_.wait_until(lock, deadline.at(), [&] { return !inbox_.empty(); })) return std::nullopt;
  auto text = std::move(inbox_.front());
  inbox_.pop_front();
  auto parsed = json::parse(text, nullptr, false);
  EXPECT_FALSE(parsed.is_discarded()) << "mcpud published a message that is not JSON: " << text;
  return parsed;
}

}  // namespace mcpud::it
