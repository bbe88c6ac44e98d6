// SPDX-License-Identifier: MIT
// The serial category's level.
#include "mcpud/serial/serial_log.hpp"

namespace mcpud::serial::log {
namespace {

std::optional<Level> g_level;

}  // namespace

void set_level(std::optional<Level> level) { g_level = level; }

bool category_enabled(Level at) { return g_level ? at >= *g_level : mcpud::log::enabled(at); }

}  // namespace mcpud::serial::log
