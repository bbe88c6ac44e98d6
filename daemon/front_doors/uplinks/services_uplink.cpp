// SPDX-License-Identifier: MIT
// The `##START` services uplink's connection life: dial, AUTH, register, serve
// calls, ping, re-register, reconnect.
#include "services_uplink.hpp"

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/log.hpp"
#include "services_messages.hpp"
#include "uplink_retry.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;

constexpr const char* kCategory = "services";
constexpr milliseconds kConnectTimeout{10000};
// A session this long (or one in which the server spoke) counts as a success.
constexpr auto kGoodSession = std::chrono::seconds(10);
constexpr std::size_t kMaxOpenTurns = 16;
// A server that takes not one byte for this long while half of queue_bytes wait has stopped reading.
constexpr auto kWriteStall = std::chrono::seconds(15);
constexpr std::string_view kPing = "##PING";
constexpr std::string_view kPong = "##INFO:PONG";
constexpr std::string_view kDisconnect = "##DISCONNECT";

std::string describe(const boost::system::error_code& ec) {
  if (ec == boost::asio::error::eof) return "the server closed the connection";
  return ec.message();
}

}  // namespace

ServicesUplink::ServicesUplink(Context context, ServicesUplinkConfig config)
    : ctx_(std::move(context)),
      config_(std::move(config)),
      decoder_(config_.max_frame_bytes),
      redial_(ctx_.io, kUplinkFirstRetry, milliseconds(config_.retry_max_ms)),
      connect_timer_(ctx_.io),
      ping_timer_(ctx_.io),
      register_timer_(ctx_.io),
      stall_timer_(ctx_.io),
      turns_(ctx_.io) {}

ServicesUplink::~ServicesUplink() { stop(); }

void ServicesUplink::start() {
  tools_changed_ = ctx_.events.subscribe([weak = weak_from_this()](const Event& event) {
    if (auto self = weak.lock(); self && event.kind == EventKind::ToolsChanged) self->schedule_register();
  });
  log::info(kCategory, "dialing ", config_.server, config_.tls ? " (TLS)" : "");
  connect();
}

void ServicesUplink::stop() {
  if (state_ == State::Stopped && !stream_) return;
  state_ = State::Stopped;
  ++generation_;
  tools_changed_.reset();
  if (stream_) stream_->close();
  stream_.reset();
  redial_.cancel();
  for (auto* timer : {&connect_timer_, &ping_timer_, &register_timer_, &stall_timer_}) timer->cancel();
  turns_.fail_all(Error::domain(DomainError::UplinkNotConnected, "the services uplink stopped"));
  ctx_.events.touch_status("uplinks");
}

void ServicesUplink::connect() {
  state_ = State::Connecting;
  const auto generation = ++generation_;
  decoder_ = StartFrameDecoder(config_.max_frame_bytes);
  outgoing_.clear();
  bytes_written_ = 0;
  read_paused_ = false;
  stall_armed_ = false;
  in_flight_ = 0;
  waiting_calls_.clear();
  std::shared_ptr<TlsClient> tls;
  if (config_.tls) {
    try {
      tls =
          tls_module().make_client({config_.ca_file, config_.server_name.empty() ? config_.host : config_.server_name});
    } catch (const std::runtime_error& e) {
      lost(e.what());
      return;
    }
  }
  stream_ = std::make_shared<UplinkStream>(ctx_.io, std::move(tls));
  connect_timer_.expires_after(kConnectTimeout);
  connect_timer_.async_wait([weak = weak_from_this(), generation](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->generation_ != generation || self->state_ != State::Connecting) return;
    self->lost("timed out connecting");
  });
  stream_->connect(config_.host, config_.port,
                   [weak = weak_from_this(), generation, stream = stream_](boost::system::error_code ec) {
                     auto self = weak.lock();
                     if (!self || self->generation_ != generation) return;
                     if (ec) return self->lost(describe(ec));
                     self->on_connected(generation);
                   });
}

void ServicesUplink::on_connected(std::uint64_t generation) {
  connect_timer_.cancel();
  state_ = State::Connected;
  peer_ = stream_->peer();
  connected_at_ = std::chrono::steady_clock::now();
  heard_ = false;
  registered_ = nullptr;
  log::info(kCategory, "connected to ", config_.server, " (", peer_, config_.tls ? ", TLS verified" : "", ")");
  ctx_.events.touch_status("uplinks");
  // The server closes a connection whose AUTH is not there within 5 s: first thing out.
  send(FrameType::Auth, kSystemTaskId, 0, auth_content(config_.token, config_.voice_id, config_.lang, config_.format));
  send_register();
  if (generation_ != generation) return;  // could not even queue them
  arm_ping();
  read(generation);
}

void ServicesUplink::read(std::uint64_t generation) {
  stream_->read_some(boost::asio::buffer(read_buffer_), [weak = weak_from_this(), generation, stream = stream_](
                                                            boost::system::error_code ec, std::size_t n) {
    auto self = weak.lock();
    if (!self || self->generation_ != generation) return;
    if (ec) return self->lost(describe(ec));
    self->on_bytes(std::string_view(self->read_buffer_.data(), n));
    if (self->generation_ != generation) return;
    if (!self->reading_should_pause()) return self->read(generation);
    self->read_paused_ = true;  // the calls wait in the socket until results drain
  });
}

// Back-pressure: no new calls are read while half of queue_bytes wait to be
// sent or max_calls_in_flight calls run; reading resumes below a quarter.
bool ServicesUplink::reading_should_pause() const {
  return outgoing_.size() >= config_.queue_bytes / 2 || in_flight_ >= config_.max_calls_in_flight ||
         !waiting_calls_.empty();
}

void ServicesUplink::resume_reading() {
  if (!read_paused_ || state_ != State::Connected) return;
  if (outgoing_.size() > config_.queue_bytes / 4 || in_flight_ >= config_.max_calls_in_flight ||
      !waiting_calls_.empty()) {
    return;
  }
  read_paused_ = false;
  read(generation_);
}

void ServicesUplink::arm_stall_timer() {
  if (stall_armed_ || outgoing_.size() < config_.queue_bytes / 2) return;
  stall_armed_ = true;
  stall_timer_.expires_after(kWriteStall);
  stall_timer_.async_wait(
      [weak = weak_from_this(), generation = generation_, before = bytes_written_](boost::system::error_code ec) {
        auto self = weak.lock();
        if (ec || !self || self->generation_ != generation) return;
        self->stall_armed_ = false;
        if (self->bytes_written_ == before && self->outgoing_.size() >= self->config_.queue_bytes / 2) {
          return self->lost("the server reads too slowly (" + std::to_string(self->outgoing_.size()) +
                            " bytes waiting to be sent, none taken for " + std::to_string(kWriteStall.count()) + " s)");
        }
        self->arm_stall_timer();
      });
}

void ServicesUplink::on_bytes(std::string_view bytes) {
  std::vector<Decoded> decoded;
  decoder_.feed(bytes, decoded);
  const auto generation = generation_;
  for (const auto& item : decoded) {
    if (generation_ != generation) return;  // a frame ended the connection
    if (const auto* problem = std::get_if<FrameProblem>(&item)) {
      log::info(kCategory, "from ", config_.server, ": ", problem->message);
    } else {
      on_frame(std::get<StartFrame>(item));
    }
  }
}

void ServicesUplink::on_frame(const StartFrame& frame) {
  heard_ = true;
  switch (frame.type) {
    case FrameType::Status:
      return on_status(frame);
    case FrameType::Mcp:
      return on_mcp(frame);
    case FrameType::Text:
    case FrameType::EndFrame:
      if (!turns_.on_frame(frame)) {
        log::debug(kCategory, frame_type_name(frame.type), " for task ", frame.task_id, " that nobody waits for");
      }
      return;
    default:
      log::debug(kCategory, "ignoring a ", frame_type_name(frame.type), " frame (", frame.content.size(), " bytes)");
  }
}

void ServicesUplink::on_status(const StartFrame& frame) {
  if (frame.content == kPing) {
    send(FrameType::Status, frame.task_id, frame.seq, kPong);
  } else if (frame.content == kDisconnect) {
    lost("the server sent ##DISCONNECT");
  } else if (frame.content != kPong) {
    log::info(kCategory, "status from ", config_.server, ": ", frame.content.substr(0, 200));
  }
}

void ServicesUplink::on_mcp(const StartFrame& frame) {
  auto message = parse_mcp_message(frame.content);
  if (message.type != "call") {
    log::debug(kCategory, "ignoring an MCP message of type '", message.type, "'");
    return;
  }
  ReplyTo reply_to{frame.task_id, frame.seq};
  if (!message.call) {
    log::info(kCategory, "refused a call from ", config_.server, ": ", message.problem);
    send_result(generation_, reply_to, failure_message(message.call_id, message.problem));
    return;
  }
  serve_call(message.call->call_id, std::move(message.call->method), std::move(message.call->params),
             std::move(reply_to));
}

void ServicesUplink::serve_call(const json& call_id, std::string method, json params, ReplyTo reply_to) {
  // A name [mcp] user_only_tools hides is refused as such even when no tool has
  // it (yet): the server cannot tell hidden tools from missing ones.
  if (!config_.user_tools && ctx_.registry.requires_user_tools(method)) {
    send_result(generation_, reply_to,
                failure_message(call_id, "service '" + method + "' is not offered on this link (user-only tool)"));
    return;
  }
  waiting_calls_.push_back({call_id, std::move(method), std::move(params), std::move(reply_to)});
  start_waiting_calls();
}

// Starts waiting calls in the order they came, up to max_calls_in_flight.
// A call that completes at once starts the next from this loop, not recursively.
void ServicesUplink::start_waiting_calls() {
  if (starting_calls_) return;
  starting_calls_ = true;
  const auto generation = generation_;
  while (generation_ == generation && !waiting_calls_.empty() && in_flight_ < config_.max_calls_in_flight) {
    auto call = std::move(waiting_calls_.front());
    waiting_calls_.pop_front();
    start_call(std::move(call));
  }
  starting_calls_ = false;
}

void ServicesUplink::start_call(WaitingCall call) {
  ++in_flight_;
  ctx_.registry.call(
      Caller{.door = "services",
             .peer = config_.server,
             .user_tools = config_.user_tools,
             .refusal = "not offered on this link",
             .identity = identity_},
      call.method, std::move(call.params),
      [weak = weak_from_this(), generation = generation_, call_id = std::move(call.call_id),
       reply_to = std::move(call.reply_to)](ToolResult result) {
        auto self = weak.lock();
        if (!self || self->generation_ != generation) return;  // the connection it came on is gone
        --self->in_flight_;
        self->send_result(generation, reply_to, result_message(call_id, result));
        if (self->generation_ != generation) return;
        self->start_waiting_calls();
        self->resume_reading();
      },
      "params");
}

void ServicesUplink::send_result(std::uint64_t generation, const ReplyTo& reply_to, const json& message) {
  if (generation != generation_ || state_ != State::Connected) return;
  send(FrameType::Mcp, reply_to.task_id, reply_to.seq, frame_safe_json(rpc::dump(message)));
}

bool ServicesUplink::offered(const Tool& tool) const { return config_.user_tools || !ctx_.registry.is_user_only(tool); }

void ServicesUplink::send_register() {
  auto message = register_message(ctx_.registry, [this](const Tool& tool) { return offered(tool); });
  if (message == registered_) return;
  const auto count = message["data"]["services"].size();
  if (send(FrameType::Mcp, config_.task_id, 0, frame_safe_json(rpc::dump(message)))) {
    registered_ = std::move(message);
    log::info(kCategory, "registered ", count, " services with ", config_.server);
  }
}

void ServicesUplink::schedule_register() {
  if (state_ != State::Connected) return;  // the next connection registers anyway
  // A reload removes and adds many tools: one register after it settles.
  register_timer_.expires_after(milliseconds(config_.register_delay_ms));
  register_timer_.async_wait([weak = weak_from_this(), generation = generation_](boost::system::error_code ec) {
    auto self = weak.lock();
    if (!ec && self && self->generation_ == generation) self->send_register();
  });
}

void ServicesUplink::arm_ping() {
  ping_timer_.expires_after(std::chrono::seconds(config_.ping_interval_s));
  ping_timer_.async_wait([weak = weak_from_this(), generation = generation_](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->generation_ != generation) return;
    if (self->send(FrameType::Status, kSystemTaskId, 0, kPing)) self->arm_ping();
  });
}

bool ServicesUplink::send(FrameType type, std::string_view task_id, unsigned seq, std::string_view content) {
  auto frame = encode_frame(type, task_id, seq, content);
  if (!frame) {
    log::warn(kCategory, "cannot send a ", frame_type_name(type), " frame: ", frame.error());
    return false;
  }
  // One frame always fits (a register of many tools may be large); more wait only up to
  // the bound. Reading pauses at half of it, so only the results of calls already
  // read (or a server that stopped reading) can pass it.
  const auto waiting = outgoing_.size();
  if (waiting > 0 && waiting + frame->size() > config_.queue_bytes) {
    lost("the server reads too slowly (" + std::to_string(waiting) + " bytes waiting to be sent)");
    return false;
  }
  outgoing_.append(*frame);
  pump();
  arm_stall_timer();  // from half of queue_bytes on, a write must make progress
  return true;
}

// One write takes everything queued (as much as the socket accepts at once).
void ServicesUplink::pump() {
  if (writing_ || outgoing_.empty() || state_ != State::Connected) return;
  writing_ = true;
  const auto bytes = outgoing_.next();
  stream_->write_some(boost::asio::buffer(bytes.data(), bytes.size()),
                      [weak = weak_from_this(), generation = generation_, stream = stream_](
                          boost::system::error_code ec, std::size_t n) {
                        auto self = weak.lock();
                        if (!self || self->generation_ != generation) return;
                        self->writing_ = false;
                        if (ec) return self->lost(describe(ec));
                        self->outgoing_.consumed(n);
                        self->bytes_written_ += n;
                        self->pump();
                        self->resume_reading();
                      });
}

void ServicesUplink::ask(const std::string& text, TextTurns::Reply reply) {
  if (state_ != State::Connected) {
    reply(std::unexpected(
        Error::domain(DomainError::UplinkNotConnected, "not connected to " + config_.server + " (reconnecting)")));
    return;
  }
  if (text.empty()) return reply(std::unexpected(Error::domain(DomainError::InvalidArgument, "text: empty")));
  if (kFrameHeaderBytes + text.size() + kFrameEnd.size() > config_.max_frame_bytes) {
    return reply(std::unexpected(
        Error::domain(DomainError::InvalidArgument,
                      "text: longer than one frame may be (" + std::to_string(config_.max_frame_bytes) + " bytes)")));
  }
  if (text.find(kFrameStart) != std::string::npos || text.find(kFrameEnd) != std::string::npos) {
    return reply(std::unexpected(Error::domain(
        DomainError::InvalidArgument, "text: must not contain ##START or ##END (the protocol cannot carry them)")));
  }
  if (turns_.size() >= kMaxOpenTurns) {
    return reply(std::unexpected(
        Error::domain(DomainError::Busy, std::to_string(kMaxOpenTurns) + " questions already wait for an answer")));
  }
  const auto task_id =
      turns_.open(std::move(reply), {std::chrono::seconds(config_.ask_timeout_s), milliseconds(config_.ask_quiet_ms)},
                  config_.task_id);
  if (send(FrameType::Text, task_id, 0, text)) send(FrameType::EndFrame, task_id, 1, "");
}

void ServicesUplink::lost(const std::string& why) {
  if (state_ == State::Stopped) return;
  ++generation_;
  const bool was_connected = state_ == State::Connected;
  if (stream_) stream_->close();
  for (auto* timer : {&connect_timer_, &ping_timer_, &register_timer_, &stall_timer_}) timer->cancel();
  outgoing_.clear();
  writing_ = false;
  read_paused_ = false;
  stall_armed_ = false;
  in_flight_ = 0;
  waiting_calls_.clear();
  turns_.fail_all(
      Error::domain(DomainError::UplinkNotConnected, "the connection to " + config_.server + " was lost: " + why));
  if (was_connected && (heard_ || std::chrono::steady_clock::now() - connected_at_ >= kGoodSession)) {
    redial_.connected();
    failing_ = false;
  }
  if (!failing_) {
    log::info(kCategory, config_.server, ": ", why, "; reconnecting");
  } else {
    log::debug(kCategory, config_.server, ": ", why, "; retrying");
  }
  failing_ = true;
  schedule_retry();
}

void ServicesUplink::schedule_retry() {
  state_ = State::Waiting;
  redial_.later([weak = weak_from_this()] {
    auto self = weak.lock();
    if (self && self->state_ == State::Waiting) self->connect();
  });
  ctx_.events.touch_status("uplinks");  // retrying, and when
}

}  // namespace mcpud::uplinks
