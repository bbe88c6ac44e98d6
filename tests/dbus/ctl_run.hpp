// SPDX-License-Identifier: MIT
// Runs mcpuctl (the real binary) to completion and collects what it printed,
// optionally as the unprivileged user nobody (through setpriv).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/daemon_process.hpp"

namespace mcpud::it {

struct CtlOutput {
  std::optional<int> exit_code;  // nullopt: still running at the deadline
  std::string out;
  std::string err;
  // stdout parsed as JSON (null when it is not JSON).
  nlohmann::json json() const { return nlohmann::json::parse(out, nullptr, false); }
};

// The argument list that runs `program` as nobody:nogroup with no other groups.
std::vector<std::string> as_nobody(const std::string& program, std::vector<std::string> args);

// Runs `program args...` and waits for it to exit.
CtlOutput run_program(const std::string& program, const std::vector<std::string>& args, Deadline deadline = 20s);
// Runs mcpuctl with `args`.
CtlOutput run_ctl(const std::vector<std::string>& args, Deadline deadline = 20s);

}  // namespace mcpud::it
