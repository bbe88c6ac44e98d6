// SPDX-License-Identifier: MIT
// One bridged MCP/U device: keeps a link to it (reconnecting with backoff),
// discovers it (get_info, list_tools), registers its tools as "<id>__<tool>"
// and its pins as "<id>__<pin>", polls the tools that ask for it and drains
// buffered pins into mcpud's own sample history. When a device that was ready
// goes away its tools stay for replug_grace_ms, answering DEVICE_DISCONNECTED
// with a retry hint, and are removed if it is not back by then. Single-threaded
// (event loop only); owned through shared_ptr so pending operations can outlive
// a reload.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "buffer_drain.hpp"
#include "device_manifest.hpp"
#include "mcpud/bridge/bridge_config.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/io/redial.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/sample_push.hpp"
#include "mcu_link.hpp"

namespace mcpud::bridge {

class McuBridge : public std::enable_shared_from_this<McuBridge> {
 public:
  // Borrows `registry` and `events`; they must outlive every handler (the
  // Daemon owns all three).
  McuBridge(boost::asio::io_context& io, BridgeConfig config, ToolRegistry& registry, EventHub& events);
  ~McuBridge();
  McuBridge(const McuBridge&) = delete;
  McuBridge& operator=(const McuBridge&) = delete;

  void start();
  // Disconnects, removes the device's tools and stops retrying.
  void stop();
  // Tries to connect now if waiting to retry (a serial device was plugged in).
  void retry_now();

  const BridgeConfig& config() const { return config_; }
  std::string owner() const { return "bridge:" + config_.id; }
  bool ready() const { return state_ == State::Ready; }
  // Why the last connection attempt failed; empty once connected.
  const std::string& last_failure() const { return last_failure_; }
  // When the next connection attempt is due (Unix ms), while waiting to retry.
  std::optional<std::int64_t> next_attempt_ms() const {
    return state_ == State::Waiting ? redial_.next_attempt_unix_ms() : std::nullopt;
  }
  // Discovery has ended, well (ready) or not (waiting to retry).
  bool settled() const { return state_ == State::Ready || state_ == State::Waiting; }
  // The tools and pins the latest discovery did not export, and why.
  const std::vector<Refusal>& refused() const { return refused_; }
  // While a lost device's tools are kept for its return: when they go (Unix ms).
  std::optional<std::int64_t> tools_kept_until_ms() const;

  // A pin of the device by its prefixed name, while the device is present.
  pins::BoardPin* find_pin(std::string_view name);
  // Appends the device's pins (MCP/U pin registry entries) to `out`.
  void describe_pins(nlohmann::json& out) const;
  // Visits the device's pins while it is present.
  void for_each_pin(const std::function<void(const pins::BoardPin&)>& visit) const;
  // The latest result of each polled tool, by prefixed tool name.
  const std::map<std::string, nlohmann::json>& polled() const { return polled_; }

 private:
  enum class State { Stopped, Connecting, Handshaking, Ready, Waiting };
  struct Poller;
  struct Drain;

  void connect();
  void on_stream(std::uint64_t generation, Result<std::unique_ptr<LinkStream>> stream);
  void handshake(std::uint64_t generation);
  void on_manifest(std::uint64_t generation, const nlohmann::json& info, const nlohmann::json& listing);
  void fail(std::uint64_t generation, const Error& reason);
  // Drops the link, the pins and the periodic work (the tools stay: see fail()).
  void go_away();
  void schedule_retry();
  // Keeps the tools of a device that was lost for replug_grace_ms, then removes them.
  void start_grace();
  void end_grace();
  // DEVICE_DISCONNECTED for a call while the device is away, with a retry hint
  // during the grace period.
  Error away_error() const;

  void register_tools(const DeviceManifest& manifest);
  // Logs the refused names when they differ from the last discovery's.
  void report_refusals(std::vector<Refusal> refused);
  void adopt_pins(const DeviceManifest& manifest);
  void start_polling(const DeviceManifest& manifest);
  // Calls `tick` every `period_ms` on `timer` while this connection lasts and tick returns true.
  void repeat(boost::asio::steady_timer& timer, std::uint32_t period_ms, const std::function<bool(McuBridge&)>& tick);
  void poll(std::size_t index);
  void schedule_poll(std::size_t index);
  void schedule_drain(std::size_t index);
  void drain(std::size_t index);
  void invoke(const std::string& method, nlohmann::json arguments, ToolReply reply);
  // invoke() for a periodic task, skipped while the task's previous call is unanswered
  // (`in_flight`, which lives as long as this connection); `done` gets the reply only
  // while this connection lasts.
  void invoke_unless_busy(bool& in_flight, const std::string& method, nlohmann::json arguments,
                          std::function<void(McuBridge&, ToolResult)> done);
  // Keeps what a pin call's result says of the pin as its reading, and tells subscribers.
  void note_reading(const nlohmann::json& result);
  // Tells clients the pin resources changed (some came or went).
  void announce_pins_changed();

  boost::asio::io_context& io_;
  BridgeConfig config_;
  ToolRegistry& registry_;
  EventHub& events_;
  State state_ = State::Stopped;
  std::uint64_t generation_ = 0;  // bumped per connection attempt; stale handlers compare it
  std::shared_ptr<McuLink> link_;
  boost::asio::steady_timer timer_;  // the reset wait after opening
  io::Redial redial_;
  boost::asio::steady_timer grace_timer_;
  std::optional<std::chrono::steady_clock::time_point> grace_until_;  // set while a lost device's tools stay
  std::string last_failure_;                                          // logged once, not on every retry
  std::vector<Refusal> refused_;
  nlohmann::json info_;

  // Pins keep their history across reconnects; `present_` lists those the device has now.
  struct RemotePin {
    std::unique_ptr<pins::BoardPin> board;  // name, number, description, sample history
    std::string type;                       // as the device says ("adc_input", or its own)
    std::unique_ptr<BufferDrain> drain;     // buffered pins; kept across reconnects to avoid duplicates
    pins::SamplePush push;                  // drained samples for mcpu://samples/<name> subscribers
  };
  std::map<std::string, RemotePin, std::less<>> pins_;
  std::vector<std::string> present_;
  std::vector<std::unique_ptr<Poller>> pollers_;
  std::vector<std::unique_ptr<Drain>> drains_;
  std::map<std::string, nlohmann::json> polled_;
};

}  // namespace mcpud::bridge
