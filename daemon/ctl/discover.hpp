// SPDX-License-Identifier: MIT
// mcpuctl discover: the boards on the LAN, browsed through avahi-daemon's
// D-Bus API on the system bus (what mcpud announces: _mcpu._tcp, _mcp._tcp).
// Failures throw sdbus::Error.
#pragma once

#include <chrono>
#include <ostream>

#include <nlohmann/json.hpp>

namespace mcpud::ctl {

// Browses for at most `wait` (less once avahi-daemon has said it has all it
// will find soon) and resolves each service found. A JSON array of
// {name, service ("mcpu" or "mcp"), host, address, port, url, txt {key: value}}.
nlohmann::json discover(std::chrono::milliseconds wait);

void print_discovered(std::ostream& out, const nlohmann::json& found);

}  // namespace mcpud::ctl
