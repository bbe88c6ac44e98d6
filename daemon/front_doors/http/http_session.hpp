// SPDX-License-Identifier: MIT
// One MCP session over Streamable HTTP: the client's dialect state, and the GET
// stream its notifications go to, with a bounded backlog while no stream is
// open. Event loop only.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/any_io_executor.hpp>

#include "mcpud/core/json_rpc.hpp"

namespace mcpud::http {

// A notification that only says "look again" (a list changed, a resource was
// updated): a second copy tells a client that has not read the first nothing.
bool says_look_again(std::string_view message);

// Where a session's notifications are written: an open GET /mcp stream.
class EventStream {
 public:
  virtual ~EventStream() = default;
  virtual void send_event(std::string_view message) = 0;
  virtual void close() = 0;
};

class McpHttpSession final : public rpc::Client, public std::enable_shared_from_this<McpHttpSession> {
 public:
  // `backlog_bytes`: notifications kept while no stream is open (oldest dropped
  // first); before the first stream only "look again" ones (says_look_again).
  McpHttpSession(std::string id, std::size_t backlog_bytes) : id_(std::move(id)), backlog_limit_(backlog_bytes) {
    caller.door = "http";               // the peer is the address that initializes the session
    reply_bytes_limit = backlog_bytes;  // one POST's reply, like one line's on the other doors
  }

  void push(std::string message) override;
  // The rest of a long batch, on a later turn of `executor` (set_executor);
  // at once without one.
  void defer(std::function<void()> next) override;
  void set_executor(boost::asio::any_io_executor executor) { executor_ = std::move(executor); }
  // Makes `stream` the session's stream and sends it the backlog.
  void attach(const std::shared_ptr<EventStream>& stream);
  // DELETE or shutdown: closes the stream and drops the client's subscriptions.
  void end();

  bool has_stream() const { return !stream_.expired(); }
  const std::string& id() const { return id_; }
  std::size_t backlog_size() const { return backlog_.size(); }

  std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
  // The address (IPv6: its /64) that initialized it, which per-address limits count.
  std::string group;

 private:
  std::string id_;
  std::size_t backlog_limit_;
  std::weak_ptr<EventStream> stream_;
  bool streamed_ = false;  // a stream was attached once: the client listens
  std::deque<std::string> backlog_;
  std::size_t backlog_bytes_ = 0;
  boost::asio::any_io_executor executor_;
};

}  // namespace mcpud::http
