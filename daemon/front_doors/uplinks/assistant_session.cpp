// SPDX-License-Identifier: MIT
// The voice-assistant session: hello, MCP envelopes through the engine, goodbye.
#include "assistant_session.hpp"

#include "assistant_protocol.hpp"
#include "mcpud/core/log.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;

}  // namespace

AssistantSession::AssistantSession(boost::asio::io_context& io, rpc::Engine& engine, EventHub& events,
                                   SessionOptions options, Observer observer)
    : engine_(engine), events_(events), options_(std::move(options)), observer_(std::move(observer)), hello_timer_(io) {
  caller.door = "assistant";
  caller.peer = options_.transport;
  conventions = rpc::McpConventions::VoiceAssistant;
  reply_bytes_limit = options_.max_reply_bytes;
}

void AssistantSession::start(std::shared_ptr<MessageLink> link) {
  link_ = std::move(link);
  const std::weak_ptr<AssistantSession> weak = shared_from_this();
  link_->open({[weak] {
                 if (auto self = weak.lock()) self->on_open();
               },
               [weak](std::string text) {
                 if (auto self = weak.lock()) self->on_message(std::move(text));
               },
               [weak](const std::string& why) {
                 if (auto self = weak.lock()) self->on_closed(why);
               }});
}

void AssistantSession::end() {
  if (ending_ || ended_ || !link_) return;
  ending_ = true;
  if (established_) link_->send(goodbye(session_id_));
  link_->close();
}

void AssistantSession::push(std::string message) {
  if (!established_ || ending_) return;
  link_->send(std::move(message));
}

bool AssistantSession::initialized() const { return mcp_initialized; }

void AssistantSession::on_open() {
  link_->send(device_hello(options_.version, options_.transport, options_.audio_params));
  hello_timer_.expires_after(options_.hello_timeout);
  hello_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->established_) return;
    self->fail("no server hello within " + std::to_string(self->options_.hello_timeout.count()) + " ms");
  });
}

void AssistantSession::on_message(std::string text) {
  if (ending_) return;
  auto in = classify(text);
  switch (in.kind) {
    case IncomingKind::Hello:
      if (!established_) on_hello(in.message);
      return;
    case IncomingKind::Mcp:
      if (established_) return on_mcp(text, std::move(in.message));
      log::debug(kAssistantLog, link_->peer(), ": mcp message before the server hello ignored");
      return;
    case IncomingKind::Goodbye:
      if (established_ && !ends_session(in.message, session_id_)) return;
      reason_ = "the server said goodbye";
      ending_ = true;
      link_->close();
      return;
    case IncomingKind::Other:
      return;  // audio-side messages (tts, stt, listen, ...)
    case IncomingKind::Invalid:
      log::debug(kAssistantLog, link_->peer(), ": message ignored: ", in.problem);
      return;
  }
}

void AssistantSession::on_hello(const json& hello) {
  auto session = accept_server_hello(hello, options_.transport);
  if (!session) return fail(session.error());
  hello_timer_.cancel();
  session_id_ = std::move(*session);
  established_ = true;
  envelope_session = session_id_;  // notifications travel in the session's envelope
  if (options_.push_pin_events) {
    pin_events_ = events_.subscribe([this](const Event& event) {
      if (event.kind == EventKind::PinEvent && initialized()) notify("notifications/pin_event", event.data);
    });
  }
  if (observer_.on_established) observer_.on_established(session_id_);
}

void AssistantSession::on_mcp(const std::string& text, json message) {
  if (const auto named = message.find("session_id"); named != message.end() && *named != session_id_) {
    // Replies and notifications must keep carrying this session's id.
    if (!warned_foreign_session_) {
      log::info(kAssistantLog, link_->peer(), ": ignoring messages for session ", rpc::dump(*named).substr(0, 80),
                " (this session is ", session_id_, ")");
      warned_foreign_session_ = true;
    }
    return;
  }
  const auto& payload = message["payload"];
  if (payload.is_object() && payload.value("method", json()) == "initialize") {
    const auto params = payload.find("params");
    if (params != payload.end() && params->is_object()) {
      const auto found = params->find("capabilities");
      capabilities_ = found != params->end() && found->is_object() ? *found : json::object();
      if (observer_.on_capabilities) observer_.on_capabilities(capabilities_);
    }
  }
  // The text as received when it names its session (the usual case): no second serialization.
  const bool named = message.contains("session_id");
  engine_.handle_line(named ? text : mcp_envelope(std::move(message), session_id_), *this,
                      [weak = weak_from_this()](std::string reply) {
                        if (reply.empty()) return;  // cancelled: no response is sent
                        if (auto self = weak.lock()) self->push(std::move(reply));
                      });
}

void AssistantSession::fail(std::string why) {
  if (ending_ || ended_) return;
  reason_ = std::move(why);
  ending_ = true;
  link_->close();
}

void AssistantSession::on_closed(const std::string& why) {
  if (ended_) return;
  ended_ = true;
  hello_timer_.cancel();
  pin_events_.reset();
  state.reset();  // ends the dialect's subscriptions now
  const bool was_established = established_;
  established_ = false;
  if (observer_.on_ended) observer_.on_ended(reason_.empty() ? why : reason_, was_established);
}

}  // namespace mcpud::uplinks
