// SPDX-License-Identifier: MIT
// MCP-over-HTTP session: pushes to the stream or the bounded backlog.
#include "http_session.hpp"

namespace mcpud::http {

void McpHttpSession::push(std::string message) {
  if (auto stream = stream_.lock()) return stream->send_event(message);
  backlog_bytes_ += message.size();
  backlog_.push_back(std::move(message));
  // Oldest first: the client has not been listening, the newest state matters most.
  while (backlog_bytes_ > backlog_limit_ && !backlog_.empty()) {
    backlog_bytes_ -= backlog_.front().size();
    backlog_.pop_front();
  }
}

void McpHttpSession::attach(const std::shared_ptr<EventStream>& stream) {
  stream_ = stream;
  for (const auto& message : backlog_) stream->send_event(message);
  backlog_.clear();
  backlog_bytes_ = 0;
}

void McpHttpSession::end() {
  state.reset();
  if (auto stream = stream_.lock()) stream->close();
}

}  // namespace mcpud::http
