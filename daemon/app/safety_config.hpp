// SPDX-License-Identifier: MIT
// The [safety] section: what needs a human's approval, the emergency stop's
// input and latch, the audit ring (docs/safety.md).
// Plain data and functions without state; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::config {

// Where the e-stop latch is kept without [safety] state_dir or systemd's $STATE_DIRECTORY.
inline constexpr const char* kDefaultStateDir = "/var/lib/mcpud";

// Defaults are the schema's (add_safety_schema), read in by parse_safety_section.
struct SafetyConfig {
  std::vector<std::string> confirm_tools;  // tool names (* wildcards) whose calls wait for approval
  std::size_t max_pending_approvals{};     // more waiting calls are refused (BUSY)
  std::uint32_t approval_timeout_ms{};     // a call nobody decided on fails with APPROVAL_TIMEOUT
  std::string estop_pin;                   // an input whose active level stops everything; "" none
  std::string estop_active;                // the estop_pin's level that stops: "low" or "high"
  std::string approve_pin;                 // an input whose press approves the oldest pending call; "" none
  std::string state_dir;                   // where the e-stop latch is kept across restarts (see kDefaultStateDir)
  std::size_t audit_records{};             // records the audit ring keeps for mcpuctl and the dashboard
};

// Adds [safety] to the config schema's properties.
void add_safety_schema(nlohmann::json& schema);
// Reads it from the validated document (defaults filled in).
std::expected<SafetyConfig, std::string> parse_safety_section(const nlohmann::json& document);

}  // namespace mcpud::config
