// SPDX-License-Identifier: MIT
// The serial tool set's log category, with its own level (SERIAL_MCP_LOG_LEVEL or
// [serial] log_level) so port traffic can be traced without a noisy daemon log.
#pragma once

#include <optional>
#include <sstream>

#include "mcpud/core/log.hpp"

namespace mcpud::serial::log {

using Level = mcpud::log::Level;

// nullopt: follow the daemon's level.
void set_level(std::optional<Level> level);
bool category_enabled(Level at);

template <class... Parts>
void print(Level at, const Parts&... parts) {
  if (!category_enabled(at)) return;
  std::ostringstream out;
  (out << ... << parts);
  mcpud::log::write(at, "serial", out.str());
}

template <class... Parts>
void debug(const Parts&... parts) {
  print(Level::Debug, parts...);
}
template <class... Parts>
void info(const Parts&... parts) {
  print(Level::Info, parts...);
}
template <class... Parts>
void warn(const Parts&... parts) {
  print(Level::Warn, parts...);
}

}  // namespace mcpud::serial::log
