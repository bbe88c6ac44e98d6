// SPDX-License-Identifier: MIT
// Command-line choices for the standard MCP front doors that override the configuration.
// Plain data and functions without state; any thread.
#pragma once

#include <optional>
#include <string>

namespace mcpud::app {

struct McpOptions {
  bool stdio = false;                      // --stdio: serve stdin/stdout, open no listeners
  std::optional<std::string> unix_socket;  // --unix PATH ("" disables)
  std::optional<std::string> http;         // --http ADDR:PORT ("" disables)
};

}  // namespace mcpud::app
