// SPDX-License-Identifier: MIT
// RAII owners of libmosquitto objects and the MQTT 5 property helpers.
#include "mosquitto_handle.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace mcpud::mqtt {

void ensure_library() {
  static std::once_flag once;
  std::call_once(once, [] { mosquitto_lib_init(); });
}

Handle make_handle(const std::string& client_id, void* user_data) {
  ensure_library();
  Handle handle(mosquitto_new(client_id.empty() ? nullptr : client_id.c_str(), true, user_data));
  if (!handle && errno == ELIBACC) {
    throw std::runtime_error("mqtt: cannot load libmosquitto.so.1 (install libmosquitto1)");
  }
  if (!handle) throw std::runtime_error("mqtt: cannot create a client: " + std::string(std::strerror(errno)));
  return handle;
}

void Properties::add_response_topic(const std::string& topic) {
  mosquitto_property_add_string(&list_, MQTT_PROP_RESPONSE_TOPIC, topic.c_str());
}

void Properties::add_correlation_data(const std::string& data) {
  mosquitto_property_add_binary(&list_, MQTT_PROP_CORRELATION_DATA, data.data(), static_cast<uint16_t>(data.size()));
}

std::string read_response_topic(const mosquitto_property* properties) {
  char* value = nullptr;
  if (!mosquitto_property_read_string(properties, MQTT_PROP_RESPONSE_TOPIC, &value, false) || !value) return {};
  std::string out(value);
  std::free(value);
  return out;
}

std::string read_correlation_data(const mosquitto_property* properties) {
  void* value = nullptr;
  uint16_t length = 0;
  if (!mosquitto_property_read_binary(properties, MQTT_PROP_CORRELATION_DATA, &value, &length, false)) return {};
  std::string out(static_cast<const char*>(value), length);
  std::free(value);
  return out;
}

std::string describe(int rc) {
  if (rc == MOSQ_ERR_ERRNO) return std::strerror(errno);
  return mosquitto_strerror(rc);
}

}  // namespace mcpud::mqtt
