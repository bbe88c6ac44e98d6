// SPDX-License-Identifier: MIT
// One session of the voice-assistant uplink over one MessageLink: the hello
// handshake (the server must answer within a deadline with a session_id), then
// MCP envelopes served by the daemon's JSON-RPC engine, device-initiated
// notifications, and goodbye from either side. A new link gets a new session,
// so the server initializes MCP afresh. Event loop only.
#pragma once

#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "message_link.hpp"

namespace mcpud::uplinks {

// The log category of the assistant uplink and its sessions.
inline constexpr const char* kAssistantLog = "assistant";

// Filled from [uplink.assistant] by the assistant uplink.
struct SessionOptions {
  std::string transport;  // the hellos' "transport": "websocket" or "udp"
  int version{};
  nlohmann::json audio_params;
  std::chrono::milliseconds hello_timeout{};
  bool push_pin_events{};  // notifications/pin_event for every PinEvent, once initialized
  // The most bytes one reply (a batch's replies together) may take: what the
  // link sends in one message and queues. Past it, results are REPLY_TOO_LARGE
  // while the batch is built, as on the line transports.
  std::size_t max_reply_bytes = std::numeric_limits<std::size_t>::max();
};

class AssistantSession final : public rpc::Client, public std::enable_shared_from_this<AssistantSession> {
 public:
  struct Observer {
    std::function<void(const std::string& session_id)> on_established;
    std::function<void(const nlohmann::json& capabilities)> on_capabilities;  // from `initialize`
    std::function<void(const std::string& why, bool was_established)> on_ended;
  };

  AssistantSession(boost::asio::io_context& io, rpc::Engine& engine, EventHub& events, SessionOptions options,
                   Observer observer);

  // Opens `link`, sends the hello and serves the server until either side ends.
  void start(std::shared_ptr<MessageLink> link);
  // Says goodbye (once the session is established) and closes; on_ended follows.
  void end();
  // end() for an owner that is letting go: no observer call from now on.
  void abandon() {
    observer_ = {};
    end();
  }

  // Notifications and replies: sent once the session is established, dropped before.
  void push(std::string message) override;

  bool established() const { return established_; }
  const std::string& session_id() const { return session_id_; }
  // The server's `initialize` capabilities (e.g. vision {url, token}); null before.
  const nlohmann::json& capabilities() const { return capabilities_; }
  // Whether the server initialized MCP in this session.
  bool initialized() const;

 private:
  void on_open();
  void on_message(std::string text);
  void on_closed(const std::string& why);
  void on_hello(const nlohmann::json& hello);
  void on_mcp(const std::string& text, nlohmann::json message);
  void fail(std::string why);

  rpc::Engine& engine_;
  EventHub& events_;
  SessionOptions options_;
  Observer observer_;
  std::shared_ptr<MessageLink> link_;
  boost::asio::steady_timer hello_timer_;
  EventHub::Subscription pin_events_;
  std::string session_id_;
  nlohmann::json capabilities_;
  std::string reason_;  // why the session is ending, when mcpud decided
  bool established_ = false;
  bool ending_ = false;
  bool warned_foreign_session_ = false;  // a message for another session was logged once
  bool ended_ = false;
};

}  // namespace mcpud::uplinks
