// SPDX-License-Identifier: MIT
// The `##START` services uplink: dials the AI server (TCP or TLS), sends AUTH
// and registers every offered tool as a service, serves the server's calls
// through the one tool registry, answers pings, keeps the link alive,
// re-registers when the tool set changes and reconnects forever with backoff.
// Also carries user turns (TEXT + END_FRAME) for `mcpuctl ask`. Event loop only.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/io/outgoing_bytes.hpp"
#include "mcpud/io/redial.hpp"
#include "mcpud/uplinks/services_uplink_config.hpp"
#include "start_frame.hpp"
#include "text_turns.hpp"
#include "uplink_stream.hpp"

namespace mcpud::uplinks {

class ServicesUplink : public std::enable_shared_from_this<ServicesUplink> {
 public:
  struct Context {
    boost::asio::io_context& io;
    ToolRegistry& registry;
    EventHub& events;
  };

  ServicesUplink(Context context, ServicesUplinkConfig config);
  ~ServicesUplink();

  void start();
  // Closes the link, stops reconnecting, fails open turns. Safe to call twice.
  void stop();

  const ServicesUplinkConfig& config() const { return config_; }
  bool connected() const { return state_ == State::Connected; }
  const std::string& peer() const { return peer_; }
  // When the next connection attempt is due (Unix ms), while waiting to retry.
  std::optional<std::int64_t> next_attempt_ms() const {
    return state_ == State::Waiting ? redial_.next_attempt_unix_ms() : std::nullopt;
  }

  // Sends a new register (after register_delay_ms) if the offered services changed.
  void refresh_services() { schedule_register(); }

  // Sends `text` as a user turn and replies with the server's answer.
  void ask(const std::string& text, TextTurns::Reply reply);

 private:
  enum class State { Stopped, Connecting, Connected, Waiting };

  void connect();
  void on_connected(std::uint64_t generation);
  void read(std::uint64_t generation);
  void on_bytes(std::string_view bytes);
  void on_frame(const StartFrame& frame);
  void on_status(const StartFrame& frame);
  void on_mcp(const StartFrame& frame);
  // Where a result goes: the TaskID and Seq of the call frame it answers.
  struct ReplyTo {
    std::string task_id;
    unsigned seq = 0;
  };
  struct WaitingCall {
    nlohmann::json call_id;
    std::string method;
    nlohmann::json params;
    ReplyTo reply_to;
  };
  void serve_call(const nlohmann::json& call_id, std::string method, nlohmann::json params, ReplyTo reply_to);
  void start_call(WaitingCall call);
  void start_waiting_calls();
  bool reading_should_pause() const;
  void resume_reading();
  void arm_stall_timer();
  void send_result(std::uint64_t generation, const ReplyTo& reply_to, const nlohmann::json& message);
  void send_register();
  void schedule_register();
  bool offered(const Tool& tool) const;
  void arm_ping();
  bool send(FrameType type, std::string_view task_id, unsigned seq, std::string_view content);
  void pump();
  void lost(const std::string& why);
  void schedule_retry();

  Context ctx_;
  ServicesUplinkConfig config_;
  State state_ = State::Stopped;
  std::uint64_t generation_ = 0;  // one per connection; older completions are ignored
  // The server as the owner of what it opens, the same on every connection.
  std::shared_ptr<ClientIdentity> identity_ = std::make_shared<ClientIdentity>();
  std::shared_ptr<UplinkStream> stream_;  // shared with its pending operations
  StartFrameDecoder decoder_;
  std::array<char, 16 * 1024> read_buffer_{};
  io::OutgoingBytes outgoing_;
  bool writing_ = false;
  bool read_paused_ = false;  // back-pressure: no read pending until results drain
  std::uint32_t in_flight_ = 0;
  // Calls read while max_calls_in_flight run; reading pauses at the limit, so
  // at most one read's worth of frames wait here.
  std::deque<WaitingCall> waiting_calls_;
  bool starting_calls_ = false;
  std::uint64_t bytes_written_ = 0;  // on this connection; the stall timer watches it
  bool stall_armed_ = false;
  std::chrono::steady_clock::time_point connected_at_;
  bool heard_ = false;    // the server sent a frame on this connection
  bool failing_ = false;  // the last attempt failed: repeats are logged at debug
  std::string peer_;
  nlohmann::json registered_;  // the last register message sent on this connection
  io::Redial redial_;
  boost::asio::steady_timer connect_timer_;
  boost::asio::steady_timer ping_timer_;
  boost::asio::steady_timer register_timer_;
  boost::asio::steady_timer stall_timer_;  // a write that takes no byte for this long
  TextTurns turns_;
  EventHub::Subscription tools_changed_;
};

}  // namespace mcpud::uplinks
