// SPDX-License-Identifier: MIT
// Request/reply over one device link.
#include "mcu_link.hpp"

#include "device_reply.hpp"
#include "mcpud/core/call_cancellation.hpp"
#include "mcpud/core/log.hpp"

namespace mcpud::bridge {

using nlohmann::json;

McuLink::McuLink(boost::asio::io_context& io, std::unique_ptr<LinkStream> stream, LinkOptions options,
                 LostHandler on_lost)
    : io_(io),
      stream_(std::move(stream)),
      options_(std::move(options)),
      on_lost_(std::move(on_lost)),
      calls_(options_.max_in_flight),
      framer_(options_.max_line_bytes),
      deadline_timer_(io) {}

McuLink::~McuLink() {
  if (stream_) stream_->close();
}

void McuLink::start() {
  open_ = true;
  read_more();
}

void McuLink::read_more() {
  stream_->async_read_some(read_buffer_, [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
    if (!self->open_) return;
    if (ec) {
      self->lost(Error::domain(DomainError::DeviceDisconnected,
                               self->options_.device_id + ": link lost (" +
                                   (ec == boost::asio::error::eof ? "end of stream" : ec.message()) + ")"));
      return;
    }
    self->framer_.feed(
        std::string_view(self->read_buffer_.data(), n), [&](std::string_view line) { self->on_line(line); },
        [&] { ++self->stats_.overflows; }, [&](std::size_t bytes) { self->on_overlong_line(bytes); });
    if (self->open_) self->read_more();
  });
}

void McuLink::on_line(std::string_view line) {
  auto parsed = parse_device_line(line, options_.device_id);
  switch (parsed.kind) {
    case DeviceLine::Kind::Noise:
      ++stats_.noise_lines;
      log::debug("bridge", options_.device_id, ": ignoring non-JSON line: ", line.substr(0, 120));
      return;
    case DeviceLine::Kind::Unsolicited:
      ++stats_.unmatched;
      return;
    case DeviceLine::Kind::IdZeroError: {
      // The device could not read a request; with one in flight it was that one.
      const auto message = parsed.outcome ? std::string() : parsed.outcome.error().message;
      if (auto again = calls_.resend_after_id_zero_error(message)) {
        ++stats_.resends;
        log::debug("bridge", options_.device_id, ": request not received whole; sending it again");
        send(std::move(*again));
      } else {
        ++stats_.unmatched;
      }
      return;
    }
    case DeviceLine::Kind::Reply: {
      auto call = calls_.take(parsed.id);
      if (!call) {
        ++stats_.unmatched;
        return;
      }
      call->reply(std::move(parsed.outcome));
      pump();
      return;
    }
  }
}

std::string McuLink::too_long_message(std::size_t bytes, bool at_least) const {
  return options_.device_id + ": the device's reply is " + (at_least ? "at least " : "") + std::to_string(bytes) +
         " bytes long, over the line limit of " + std::to_string(options_.max_line_bytes) + " bytes";
}

// A line too long to read was dropped. With one request on the wire it was its
// reply: that call fails now, saying so, rather than later as a timeout.
void McuLink::on_overlong_line(std::size_t bytes) {
  auto call = calls_.take_after_overlong_line(bytes);
  if (!call) {
    log::debug("bridge", options_.device_id, ": dropped a line of ", bytes, " bytes (over the line limit of ",
               options_.max_line_bytes, "); the calls in flight may time out");
    return;
  }
  call->reply(std::unexpected(Error::domain(DomainError::ReplyTooLarge, too_long_message(bytes, false))));
  pump();
  arm_deadline_timer();
}

void McuLink::call(const std::string& method, const json& params, ToolReply reply) {
  if (!open_) {
    reply(
        std::unexpected(Error::domain(DomainError::DeviceDisconnected, options_.device_id + ": device not connected")));
    return;
  }
  if (in_flight() >= options_.max_in_flight) {
    reply(std::unexpected(Error::domain(DomainError::Busy, options_.device_id + ": too many calls in flight (" +
                                                               std::to_string(options_.max_in_flight) + ")")));
    return;
  }
  const auto id = calls_.next_id();
  json request = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) request["params"] = params;
  std::string line = request.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  const auto deadline = CallTable::Clock::now() + std::chrono::milliseconds(options_.timeout_ms);
  CallTable::Call call{id, std::move(line), std::move(reply), deadline, false};
  // A cancelled call frees its slot at once; a late reply from the device is then unmatched.
  if (auto* cancellation = CallCancellation::current()) {
    cancellation->on_cancel([weak = weak_from_this(), id] {
      if (auto self = weak.lock()) self->abandon(id);
    });
  }
  if (one_at_a_time_ && calls_.size() > 0) {
    waiting_.push_back(std::move(call));
  } else {
    dispatch(std::move(call));
  }
  arm_deadline_timer();
}

void McuLink::abandon(std::int64_t id) {
  auto call = calls_.take(id);
  if (!call) {
    const auto waiting = std::find_if(waiting_.begin(), waiting_.end(), [id](const auto& c) { return c.id == id; });
    if (waiting == waiting_.end()) return;
    call = std::move(*waiting);
    waiting_.erase(waiting);
  }
  call->reply(std::unexpected(Error::domain(DomainError::Timeout, options_.device_id + ": call cancelled")));
  pump();
  arm_deadline_timer();
}

void McuLink::dispatch(CallTable::Call call) {
  auto line = call.line;
  calls_.insert(std::move(call));
  send(std::move(line));
}

// One at a time: the next waiting call goes out once the wire is free.
void McuLink::pump() {
  while (open_ && calls_.size() == 0 && !waiting_.empty()) {
    auto call = std::move(waiting_.front());
    waiting_.pop_front();
    dispatch(std::move(call));
  }
}

void McuLink::send(std::string line) {
  write_queue_.push_back(std::move(line));
  if (!writing_) write_next();
}

void McuLink::write_next() {
  if (write_queue_.empty() || !open_) {
    writing_ = false;
    return;
  }
  writing_ = true;
  stream_->async_write(write_queue_.front(), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
    if (!self->open_) return;
    if (ec) {
      self->lost(Error::domain(DomainError::DeviceDisconnected,
                               self->options_.device_id + ": write failed (" + ec.message() + ")"));
      return;
    }
    self->write_queue_.pop_front();
    self->write_next();
  });
}

void McuLink::arm_deadline_timer() {
  auto earliest = calls_.earliest_deadline();
  for (const auto& call : waiting_) {
    if (!earliest || call.deadline < *earliest) earliest = call.deadline;
  }
  if (!earliest) {
    deadline_timer_.cancel();
    return;
  }
  deadline_timer_.expires_at(*earliest);
  deadline_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec && self->open_) self->on_deadline();
  });
}

void McuLink::on_deadline() {
  const auto now = CallTable::Clock::now();
  // The one request on the wire while an over-long line is still arriving: that line is its reply.
  const std::size_t arriving = calls_.size() == 1 ? framer_.overlong_bytes() : 0;
  auto expired = calls_.take_expired(now);
  if (arriving != 0 && !expired.empty()) {
    expired.front().reply(std::unexpected(Error::domain(DomainError::ReplyTooLarge, too_long_message(arriving, true))));
    expired.clear();
  }
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    if (it->deadline > now) {
      ++it;
      continue;
    }
    expired.push_back(std::move(*it));
    it = waiting_.erase(it);
  }
  for (auto& call : expired) call.reply(std::unexpected(timeout_error(call)));
  pump();
  arm_deadline_timer();
}

Error McuLink::timeout_error(const CallTable::Call& call) const {
  std::string message = options_.device_id + ": no reply within " + std::to_string(options_.timeout_ms) + " ms";
  if (!call.unread_error.empty()) message += " (the device could not read the request: " + call.unread_error + ")";
  if (call.dropped_line_bytes != 0) {
    message += " (meanwhile a line of " + std::to_string(call.dropped_line_bytes) + " bytes, over the line limit of " +
               std::to_string(options_.max_line_bytes) + " bytes, was dropped)";
  }
  return Error::domain(DomainError::Timeout, std::move(message));
}

void McuLink::lost(const Error& reason) {
  close(reason);
  if (auto handler = std::move(on_lost_)) handler(reason);
}

void McuLink::close(const Error& reason) {
  if (!open_) return;
  open_ = false;
  deadline_timer_.cancel();
  stream_->close();  // queued lines stay alive until their aborted writes return
  auto failed = calls_.take_all();
  for (auto& call : waiting_) failed.push_back(std::move(call));
  waiting_.clear();
  for (auto& call : failed) call.reply(std::unexpected(reason));
}

}  // namespace mcpud::bridge
