// SPDX-License-Identifier: MIT
// Who called a tool and how it went: what the registry tells an observer (the
// activity feed) about every finished call while the observer wants to know.
// Single-threaded (event loop only).
#pragma once

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/tool.hpp"

namespace mcpud {

// One finished call, as the observer sees it.
struct CallRecord {
  const Caller& caller;
  std::string_view tool;
  const nlohmann::json& arguments;  // as the caller sent them
  const Result<nlohmann::json>& outcome;
  std::chrono::system_clock::time_point started;
  std::chrono::steady_clock::duration duration;
};

class CallObserver {
 public:
  virtual ~CallObserver() = default;
  // Asked before every call: false makes the call cost nothing extra.
  virtual bool wants_calls() const = 0;
  virtual void on_call(const CallRecord& call) = 0;
};

}  // namespace mcpud
