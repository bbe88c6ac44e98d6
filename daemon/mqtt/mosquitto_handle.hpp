// SPDX-License-Identifier: MIT
// RAII owners of libmosquitto's C objects: the library itself (initialised once
// per process), a client handle and an MQTT 5 property list; and the reading of
// the MQTT 5 properties mcpud uses. Single-threaded.
#pragma once

#include <memory>
#include <string>

#include <mosquitto.h>
#include <mqtt_protocol.h>

namespace mcpud::mqtt {

// mosquitto_lib_init, once per process, before the first handle.
void ensure_library();

struct HandleDeleter {
  void operator()(mosquitto* handle) const { mosquitto_destroy(handle); }
};
using Handle = std::unique_ptr<mosquitto, HandleDeleter>;

// A new client handle with `user_data` passed to every callback; throws
// std::runtime_error when the library cannot allocate one.
Handle make_handle(const std::string& client_id, void* user_data);

// An outgoing property list (empty = nullptr, which every _v5 call accepts).
class Properties {
 public:
  Properties() = default;
  ~Properties() { mosquitto_property_free_all(&list_); }
  Properties(const Properties&) = delete;
  Properties& operator=(const Properties&) = delete;

  void add_response_topic(const std::string& topic);
  void add_correlation_data(const std::string& data);
  const mosquitto_property* get() const { return list_; }

 private:
  mosquitto_property* list_ = nullptr;
};

// The Response Topic / Correlation Data of an incoming message ("" if absent).
std::string read_response_topic(const mosquitto_property* properties);
std::string read_correlation_data(const mosquitto_property* properties);

// A library return code as text ("the connection was lost").
std::string describe(int rc);

}  // namespace mcpud::mqtt
