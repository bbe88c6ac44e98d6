// SPDX-License-Identifier: MIT
// The gate every actuating call passes on its way through the one registry:
// the registry asks it before invoking a tool that changes the world, and it
// refuses the call, answers a dry run, or lets it through (now, or once a
// human approved it). The app implements it (app/safety).
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <functional>
#include <memory>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/tool.hpp"

namespace mcpud {

// The argument every actuating tool accepts: check everything, change nothing.
inline constexpr std::string_view kDryRunArgument = "dry_run";

// Whether calls of `tool` actuate: a tool mcpud does not know to only read (a
// bridged device saying so is not believed), except the emergency stop itself
// (`emergency_stop`, and a bridged device's own `<device>__emergency_stop`),
// which anyone may call at any time.
bool is_actuating(const Tool& tool);
// Whether `name` is an emergency stop: emergency_stop or <device>__emergency_stop.
bool is_emergency_stop(std::string_view name);

// One call the gate decides on. A copy of everything it needs, since an
// approval may come long after the request that asked for it.
struct GatedCall {
  Caller caller;
  std::shared_ptr<const Tool> tool;
  nlohmann::json arguments;     // validated, defaults filled in; dry_run as the client gave it
  bool native_dry_run = false;  // the tool declares dry_run itself and answers it
};

// Runs the tool of a call with `arguments` (dry_run removed unless the tool
// declares it), answering `reply` exactly once.
using GateProceed = std::move_only_function<void(const Caller& caller, nlohmann::json&& arguments, ToolReply&& reply)>;

class CallGate {
 public:
  virtual ~CallGate() = default;
  // Decides `call`: either answers `reply` itself (a refusal, a dry run's
  // answer) or calls `proceed` once, now or later, handing it a reply (its
  // own, to see the outcome, or `reply`). Exactly one of the two answers.
  virtual void admit(GatedCall call, ToolReply reply, GateProceed proceed) = 0;
};

}  // namespace mcpud
