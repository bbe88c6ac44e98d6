// SPDX-License-Identifier: MIT
// Which tools actuate: the one rule the registry and the gate share.
#include "mcpud/core/call_gate.hpp"

namespace mcpud {

bool is_emergency_stop(std::string_view name) {
  constexpr std::string_view kStop = "emergency_stop";
  return name == kStop || (name.ends_with(kStop) && name.size() > kStop.size() + 2 &&
                           name.substr(name.size() - kStop.size() - 2, 2) == "__");
}

bool is_actuating(const Tool& tool) {
  const bool reads = tool.annotations.read_only && tool.annotations.from == HintsFrom::Mcpud;
  return !reads && !is_emergency_stop(tool.name);
}

}  // namespace mcpud
