// SPDX-License-Identifier: MIT
// MCP-over-HTTP session: pushes to the stream or the bounded backlog.
#include "http_session.hpp"

#include <algorithm>

#include <boost/asio/post.hpp>

namespace mcpud::http {

bool says_look_again(std::string_view message) {
  return message.find("list_changed\"") != std::string_view::npos ||
         message.find("\"notifications/resources/updated\"") != std::string_view::npos;
}

void McpHttpSession::push(std::string message) {
  if (auto stream = stream_.lock()) return stream->send_event(message);
  // A client that never opened a stream (many POST-only hosts) would never read
  // its log lines and events, but each of its sessions would hold a backlog of
  // them until it ends. What it needs when a stream does open is what changed.
  if (!streamed_ && !says_look_again(message)) return;
  // A session its client left (no stream, no DELETE) would otherwise keep one
  // copy per change until it expires: a replugged device's every come and go.
  if (says_look_again(message)) {
    if (const auto copy = std::find(backlog_.begin(), backlog_.end(), message); copy != backlog_.end()) {
      backlog_bytes_ -= copy->size();
      backlog_.erase(copy);
    }
  }
  backlog_bytes_ += message.size();
  backlog_.push_back(std::move(message));
  // Oldest first: the client has not been listening, the newest state matters most.
  while (backlog_bytes_ > backlog_limit_ && !backlog_.empty()) {
    backlog_bytes_ -= backlog_.front().size();
    backlog_.pop_front();
  }
}

void McpHttpSession::defer(std::function<void()> next) {
  if (!executor_) return next();
  // Held until then: a session ended meanwhile (DELETE) still finishes its
  // batch, whose POST awaits the reply.
  boost::asio::post(executor_, [self = shared_from_this(), next = std::move(next)] { next(); });
}

void McpHttpSession::attach(const std::shared_ptr<EventStream>& stream) {
  stream_ = stream;
  streamed_ = true;
  for (const auto& message : backlog_) stream->send_event(message);
  backlog_.clear();
  backlog_bytes_ = 0;
}

void McpHttpSession::end() {
  state.reset();
  if (auto stream = stream_.lock()) stream->close();
}

}  // namespace mcpud::http
