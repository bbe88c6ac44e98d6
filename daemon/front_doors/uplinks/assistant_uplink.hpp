// SPDX-License-Identifier: MIT
// The voice-assistant uplink: dials the configured server (WebSocket) or keeps
// a broker connection (MQTT), runs one AssistantSession at a time and starts a
// new one, forever, with backoff. Offers the
// user-only tool `assistant_status` (link state, the server's capabilities with
// secrets redacted) and, if configured, writes the capabilities (secrets
// included) to a 0600 file for the board's own programs. Event loop only.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "assistant_session.hpp"
#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/io/redial.hpp"
#include "mcpud/uplinks/assistant_uplink_config.hpp"
#include "message_link.hpp"

namespace mcpud::uplinks {

class MqttChannel;

inline constexpr const char* kAssistantToolsOwner = "uplink:assistant";

class AssistantUplink {
 public:
  struct Context {
    boost::asio::io_context& io;
    ToolRegistry& registry;
    rpc::Engine& engine;
    EventHub& events;
  };

  AssistantUplink(Context context, AssistantUplinkConfig config);
  // Says goodbye, removes its tool.
  ~AssistantUplink();
  AssistantUplink(const AssistantUplink&) = delete;
  AssistantUplink& operator=(const AssistantUplink&) = delete;

  void start();
  // Applies changed settings: the running session ends and a new one starts.
  void reconfigure(AssistantUplinkConfig config);
  // Ends the session (goodbye) and stops reconnecting.
  void stop();
  const AssistantUplinkConfig& config() const { return config_; }
  // What assistant_status returns.
  nlohmann::json status() const;
  // ("assistant-ws" or "assistant-mqtt", peer) while a session is established, for ListClients.
  std::optional<std::pair<std::string, std::string>> client_row() const;
  // When the next connection attempt is due (Unix ms), while waiting to retry.
  std::optional<std::int64_t> next_attempt_ms() const {
    return stopped_ || session_ ? std::nullopt : redial_.next_attempt_unix_ms();
  }

 private:
  void adopt(AssistantUplinkConfig config);
  void connect();
  std::shared_ptr<MessageLink> make_link(std::string& problem);
  std::shared_ptr<MessageLink> mqtt_link(std::string& problem);
  void on_established(const std::string& session_id);
  void on_ended(const std::string& why, bool was_established);
  void write_capabilities(const nlohmann::json& capabilities) const;
  void remove_capabilities() const;
  void register_status_tool();

  Context ctx_;
  AssistantUplinkConfig config_;
  std::string device_id_;
  std::string client_id_;
  std::string peer_;
  io::Redial redial_;
  std::unique_ptr<MqttChannel> mqtt_;  // transport = "mqtt": the persistent broker connection
  std::shared_ptr<AssistantSession> session_;
  // The server as the owner of what it opens, the same on every connection.
  std::shared_ptr<ClientIdentity> identity_ = std::make_shared<ClientIdentity>();
  std::string last_error_;
  std::chrono::steady_clock::time_point connected_at_;
  unsigned sessions_ = 0;  // established since start
  unsigned failures_ = 0;  // consecutive attempts that did not establish a session
  bool stopped_ = true;
};

// Starts, restarts (when its settings changed) or stops the uplink in `running`
// to match `wanted`.
void reconcile_assistant_uplink(std::unique_ptr<AssistantUplink>& running, const AssistantUplinkConfig& wanted,
                                AssistantUplink::Context context);

}  // namespace mcpud::uplinks
