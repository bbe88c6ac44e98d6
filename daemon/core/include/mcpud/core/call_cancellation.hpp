// SPDX-License-Identifier: MIT
// Stopping a call that has not answered yet (MCP notifications/cancelled). The
// engine makes one per request and makes it current while the request is
// dispatched; a back room that can stop early (a serial read that waits, a
// bridged call) registers how, from inside its invoke. Event loop only.
#pragma once

#include <functional>

#include <nlohmann/json_fwd.hpp>

namespace mcpud {

class CallCancellation {
 public:
  // How to stop the call early. The stop must still answer the call (the engine
  // drops that answer), so every reply path runs exactly once.
  void on_cancel(std::function<void()> stop) { stop_ = std::move(stop); }
  // Marks the call cancelled and stops it if it registered how.
  void cancel();
  bool cancelled() const { return cancelled_; }
  // The JSON-RPC id of the request (MCP's subscriptions/listen names its
  // stream by it); null outside a request. Lives as long as this.
  const nlohmann::json* request_id() const { return request_id_; }
  void set_request_id(const nlohmann::json* id) { request_id_ = id; }

  // The cancellation of the request being dispatched right now; null outside
  // one (e.g. in a completion handler that runs later).
  static CallCancellation* current();

  // Makes `cancellation` current for its lifetime.
  class Scope {
   public:
    explicit Scope(CallCancellation* cancellation);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    CallCancellation* previous_;
  };

 private:
  std::function<void()> stop_;
  const nlohmann::json* request_id_ = nullptr;
  bool cancelled_ = false;
};

}  // namespace mcpud
