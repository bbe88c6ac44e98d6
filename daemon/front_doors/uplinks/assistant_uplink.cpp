// SPDX-License-Identifier: MIT
// The voice-assistant uplink's reconnect loop, status tool and capabilities file.
#include "assistant_uplink.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "assistant_protocol.hpp"
#include "device_identity.hpp"
#include "mcpud/core/log.hpp"
#include "mqtt_link.hpp"
#include "uplink_retry.hpp"
#include "ws_link.hpp"
#include "ws_url.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

long long seconds_since(std::chrono::steady_clock::time_point then) {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - then).count();
}

}  // namespace

AssistantUplink::AssistantUplink(Context context, AssistantUplinkConfig config)
    : ctx_(context), redial_(context.io, kUplinkFirstRetry, milliseconds(config.retry_max_ms)) {
  adopt(std::move(config));
  register_status_tool();
}

AssistantUplink::~AssistantUplink() {
  stop();
  ctx_.registry.remove_owner(kAssistantToolsOwner);
}

void AssistantUplink::adopt(AssistantUplinkConfig config) {
  config_ = std::move(config);
  device_id_ = config_.device_id.empty() ? default_device_id() : config_.device_id;
  client_id_ = config_.client_id.empty() ? derived_client_id(device_id_) : config_.client_id;
  const auto target = parse_ws_url(config_.url);
  peer_ = config_.mqtt() ? "mqtt://" + config_.broker + "/" + config_.publish_topic
                         : (target ? target->display() : config_.url);
  redial_.set_ceiling(milliseconds(config_.retry_max_ms));
}

void AssistantUplink::start() {
  if (!stopped_) return;
  stopped_ = false;
  failures_ = 0;
  redial_.connected();
  log::info(kAssistantLog, "dialing ", peer_, " as device ", device_id_, ", client ", client_id_);
  connect();
}

void AssistantUplink::reconfigure(AssistantUplinkConfig config) {
  stop();
  adopt(std::move(config));
  start();
}

void AssistantUplink::stop() {
  stopped_ = true;
  redial_.cancel();
  if (session_) {
    if (session_->established())
      log::info(kAssistantLog, peer_, ": saying goodbye to session ", session_->session_id());
    session_->abandon();
    session_.reset();
    remove_capabilities();
  }
  mqtt_.reset();  // after the goodbye was handed to it: flushed, then DISCONNECT
}

void AssistantUplink::connect() {
  std::string problem;
  auto link = make_link(problem);
  if (!link) return on_ended(problem, false);
  SessionOptions session{config_.mqtt() ? "udp" : "websocket", config_.protocol_version, config_.audio_params,
                         milliseconds(config_.hello_timeout_ms), config_.push_pin_events,
                         // Half the queue: the REPLY_TOO_LARGE errors of a long batch's
                         // other elements, and notifications, still fit beside it.
                         std::min(config_.max_message_bytes, config_.queue_bytes / 2)};
  AssistantSession::Observer observer{[this](const std::string& id) { on_established(id); },
                                      [this](const json& capabilities) { write_capabilities(capabilities); },
                                      [this](const std::string& why, bool was) { on_ended(why, was); }};
  session_ =
      std::make_shared<AssistantSession>(ctx_.io, ctx_.engine, ctx_.events, std::move(session), std::move(observer));
  session_->caller.identity = identity_;  // one client across reconnections: its serial sessions stay its own
  session_->start(std::move(link));
}

std::shared_ptr<MessageLink> AssistantUplink::make_link(std::string& problem) {
  if (config_.mqtt()) return mqtt_link(problem);
  auto target = parse_ws_url(config_.url);
  if (!target) {  // checked with the config; kept for safety
    problem = "url: " + target.error();
    return nullptr;
  }
  WsOptions options;
  options.target = std::move(*target);
  if (!config_.token.empty()) options.headers.emplace_back("Authorization", "Bearer " + config_.token);
  options.headers.emplace_back("Protocol-Version", std::to_string(config_.protocol_version));
  options.headers.emplace_back("Device-Id", device_id_);
  options.headers.emplace_back("Client-Id", client_id_);
  options.ca_file = config_.ca_file;
  options.insecure_skip_verify = config_.insecure_skip_verify;
  options.max_message_bytes = config_.max_message_bytes;
  options.queue_bytes = config_.queue_bytes;
  options.ping_interval = milliseconds(config_.ping_interval_ms);
  try {
    return make_ws_link(ctx_.io, std::move(options));
  } catch (const std::runtime_error& e) {  // wss:// without the TLS module
    problem = e.what();
    return nullptr;
  }
}

// The broker connection is made once and kept; each session gets a link over it.
std::shared_ptr<MessageLink> AssistantUplink::mqtt_link(std::string& problem) {
  if (!mqtt_) {
    MqttLinkOptions options;
    options.client.host = config_.broker_address.host;
    options.client.port = config_.broker_address.port;
    options.client.client_id = client_id_;
    options.client.version = config_.mqtt_version == "5" ? mqtt::ProtocolVersion::v5 : mqtt::ProtocolVersion::v311;
    options.client.keepalive = std::chrono::seconds(config_.keepalive_s);
    options.client.username = config_.username;
    options.client.password = config_.password;
    if (config_.tls) options.client.tls = mqtt::TlsOptions{config_.ca_file, "", "", "", config_.insecure_skip_verify};
    options.client.retry_first = kUplinkFirstRetry;
    options.client.retry_ceiling = milliseconds(config_.retry_max_ms);
    options.client.log_category = kAssistantLog;
    options.publish_topic = config_.publish_topic;
    options.reply_topic = config_.subscribe_topic.empty() ? default_reply_topic(device_id_) : config_.subscribe_topic;
    options.qos = config_.qos;
    options.max_message_bytes = config_.max_message_bytes;
    try {
      mqtt_ = std::make_unique<MqttChannel>(ctx_.io, std::move(options));
    } catch (const std::exception& e) {
      problem = e.what();
      return nullptr;
    }
  }
  return mqtt_->link();
}

void AssistantUplink::on_established(const std::string& session_id) {
  ++sessions_;
  connected_at_ = std::chrono::steady_clock::now();
  log::info(kAssistantLog, peer_, ": connected, session ", session_id,
            failures_ > 0 ? " (after " + std::to_string(failures_) + " failed attempts)" : std::string());
  failures_ = 0;
  last_error_.clear();
  redial_.connected();
  ctx_.events.touch_status("uplinks");
}

void AssistantUplink::on_ended(const std::string& why, bool was_established) {
  if (session_) remove_capabilities();
  session_.reset();
  const bool repeat = why == last_error_;
  last_error_ = why;
  if (stopped_) return;
  if (was_established) {
    log::info(kAssistantLog, peer_, ": session ended: ", why, "; reconnecting");
  } else if (failures_++ == 0 || !repeat) {
    log::info(kAssistantLog, peer_, ": ", why, "; retrying with backoff");
  } else {
    log::debug(kAssistantLog, peer_, ": ", why, " (attempt ", failures_, ")");
  }
  redial_.later([this] {
    if (!stopped_) connect();
  });
  ctx_.events.touch_status("uplinks");  // retrying, and when
}

json AssistantUplink::status() const {
  json out = {{"transport", config_.transport},
              {"url", peer_},
              {"device_id", device_id_},
              {"client_id", client_id_},
              {"sessions", sessions_}};
  if (stopped_) {
    out["state"] = "stopped";
  } else if (session_ && session_->established()) {
    out["state"] = "connected";
    out["session_id"] = session_->session_id();
    out["connected_s"] = seconds_since(connected_at_);
    out["initialized"] = session_->initialized();
    out["capabilities"] =
        redact_secrets(session_->capabilities().is_null() ? json::object() : session_->capabilities());
  } else if (session_) {
    out["state"] = "connecting";
  } else {
    out["state"] = "waiting";
    const auto due = redial_.next_attempt().value_or(std::chrono::steady_clock::now());
    out["retry_in_ms"] = std::max<long long>(
        0, std::chrono::duration_cast<milliseconds>(due - std::chrono::steady_clock::now()).count());
  }
  if (!last_error_.empty()) out["last_error"] = last_error_;
  return out;
}

std::optional<std::pair<std::string, std::string>> AssistantUplink::client_row() const {
  if (!session_ || !session_->established()) return std::nullopt;
  return std::pair{std::string(config_.mqtt() ? "assistant-mqtt" : "assistant-ws"),
                   peer_ + " session " + session_->session_id()};
}

void AssistantUplink::register_status_tool() {
  Tool tool;
  tool.name = "assistant_status";
  tool.title = "Voice-assistant link status";
  tool.description =
      "The voice-assistant uplink: connection state, session, and the capabilities the server announced in "
      "initialize (secrets shown as \"(set)\")";
  tool.input_schema = {{"type", "object"}, {"properties", json::object()}};
  tool.annotations = kReads;
  tool.annotations.user_only = true;
  tool.owner = kAssistantToolsOwner;
  tool.invoke = [this](const json&, const ToolReply& reply) { reply(status()); };
  if (auto added = ctx_.registry.add(std::move(tool)); !added) log::warn(kAssistantLog, added.error().message);
}

// Written whole under a temporary name and renamed, so a reader never sees half a file.
void AssistantUplink::write_capabilities(const json& capabilities) const {
  if (config_.capabilities_file.empty() || !session_) return;
  const std::string temporary = config_.capabilities_file + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    log::warn(kAssistantLog, "capabilities_file ", temporary, ": cannot create: ", std::strerror(errno));
    return;
  }
  ::fchmod(fd, 0600);
  const std::string text =
      rpc::dump(json{{"url", peer_}, {"session_id", session_->session_id()}, {"capabilities", capabilities}}) + "\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!written || std::rename(temporary.c_str(), config_.capabilities_file.c_str()) != 0) {
    log::warn(kAssistantLog, "capabilities_file ", config_.capabilities_file, ": cannot write: ", std::strerror(errno));
    ::unlink(temporary.c_str());
  }
}

void AssistantUplink::remove_capabilities() const {
  if (!config_.capabilities_file.empty()) ::unlink(config_.capabilities_file.c_str());
}

void reconcile_assistant_uplink(std::unique_ptr<AssistantUplink>& running, const AssistantUplinkConfig& wanted,
                                AssistantUplink::Context context) {
  if (!wanted.enabled()) {
    running.reset();
    return;
  }
  if (!running) {
    running = std::make_unique<AssistantUplink>(context, wanted);
    running->start();
  } else if (!(running->config() == wanted)) {
    running->reconfigure(wanted);
  }
}

}  // namespace mcpud::uplinks
