// SPDX-License-Identifier: MIT
// The current request's cancellation, and cancelling it.
#include "mcpud/core/call_cancellation.hpp"

namespace mcpud {
namespace {

// Single-threaded by design (one event loop); thread_local keeps tests with
// their own threads apart.
thread_local CallCancellation* current_cancellation = nullptr;

}  // namespace

void CallCancellation::cancel() {
  if (cancelled_) return;
  cancelled_ = true;
  if (auto stop = std::move(stop_)) stop();
}

CallCancellation* CallCancellation::current() { return current_cancellation; }

CallCancellation::Scope::Scope(CallCancellation* cancellation) : previous_(current_cancellation) {
  current_cancellation = cancellation;
}

CallCancellation::Scope::~Scope() { current_cancellation = previous_; }

}  // namespace mcpud
