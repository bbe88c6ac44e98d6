// SPDX-License-Identifier: MIT
// How many tool calls this process was asked (ToolRegistry::call, the one way
// in, counts them): an `mcpud --stdio` that served none, such as a host's probe
// spawn, has driven nothing and leaves the outputs alone on exit.
#pragma once

#include <cstdint>

namespace mcpud {

std::uint64_t tool_calls_asked();

}  // namespace mcpud
