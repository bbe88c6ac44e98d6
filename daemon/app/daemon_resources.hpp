// SPDX-License-Identifier: MIT
// The daemon's own MCP resources, beside the pins: mcpu://daemon/status (what
// runs, who is connected, how to connect), mcpu://daemon/activity (the calls of
// every client), mcpu://daemon/log (the log tail) and mcpu://daemon/buses (the
// configured I2C and SPI devices with their last transfers), mcpu://daemon/safety
// (the e-stop and the calls waiting for approval). All can be
// subscribed to (the status through StatusFeed). What the dashboard shows beyond tools and pins. Event loop only.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/activity_log.hpp"
#include "mcpud/core/error.hpp"
#include "mcpud/core/log_tail.hpp"
#include "mcpud/core/safety_control.hpp"

namespace mcpud::app {

inline constexpr std::string_view kDaemonUriPrefix = "mcpu://daemon/";

class DaemonResources {
 public:
  // What the status is made of; each function is called when the status is read.
  struct Context {
    std::function<std::string()> device;
    std::string version;
    std::function<std::string()> board;
    std::function<nlohmann::json()> listeners;  // [{kind, address, url?}]
    std::function<nlohmann::json()> clients;    // [{door, client}]
    std::function<nlohmann::json()> uplinks;    // [{kind, server, connected, next_attempt_ms?, ...}]
    std::function<nlohmann::json()> bridges;    // [{id, link, online, tools, last_error, next_attempt_ms?}]
    std::function<bool()> token_required;       // the HTTP door asks for a bearer token
    std::function<nlohmann::json()> buses;      // {i2c: [...], spi: [...]}: buses::LastTransfers::describe
  };

  // Borrows `activity`, `log` and `safety` (nullable: no mcpu://daemon/safety
  // to read); they must outlive this object.
  DaemonResources(Context context, const ActivityLog& activity, const LogTail& log, const SafetyControl* safety)
      : ctx_(std::move(context)), activity_(activity), log_(log), safety_(safety) {}

  // resources/list entries, marked for the user (audience) rather than the model.
  nlohmann::json list() const;
  // Whether `uri` is one of these resources.
  bool has(std::string_view uri) const;
  // The resource's JSON value; RESOURCE_NOT_FOUND for other URIs.
  Result<nlohmann::json> read(std::string_view uri) const;
  // What mcpu://daemon/status reads (and its updates carry).
  nlohmann::json status() const;

 private:
  Context ctx_;
  const ActivityLog& activity_;
  const LogTail& log_;
  const SafetyControl* safety_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace mcpud::app
