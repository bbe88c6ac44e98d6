// SPDX-License-Identifier: MIT
// Stopping a call that has not answered yet (MCP notifications/cancelled). The
// engine makes one per request and makes it current while the request is
// dispatched; a back room that can stop early (a serial read that waits, a
// bridged call) registers how, from inside its invoke. Event loop only.
#pragma once

#include <functional>

namespace mcpud {

class CallCancellation {
 public:
  // How to stop the call early. The stop must still answer the call (the engine
  // drops that answer), so every reply path runs exactly once.
  void on_cancel(std::function<void()> stop) { stop_ = std::move(stop); }
  // Marks the call cancelled and stops it if it registered how.
  void cancel();
  bool cancelled() const { return cancelled_; }

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
  bool cancelled_ = false;
};

}  // namespace mcpud
