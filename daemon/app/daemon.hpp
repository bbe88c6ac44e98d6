// SPDX-License-Identifier: MIT
// The running daemon: wires configuration, board, registry, dialects and
// listeners together; reloads on SIGHUP and shuts down cleanly on SIGTERM/SIGINT.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "mcp_options.hpp"

namespace mcpud::app {

struct Options {
  std::optional<std::string> config_path;  // none: the built-in simulated board
  std::vector<std::string> listen;         // --listen: replaces the config's list
  std::vector<std::string> ttys;           // --tty: added to the config's list
  std::optional<std::string> log_level;    // --log-level: wins over the config
  McpOptions mcp;                          // --stdio, --unix, --http
  std::optional<std::string> dbus;         // --dbus system|session|none: wins over the config
};

// Loads the configuration the options point at (file or built-in).
std::expected<config::Config, std::string> load_config(const Options& options);

class Daemon {
 public:
  explicit Daemon(Options options);
  ~Daemon();

  // Runs until SIGTERM/SIGINT; returns the process exit code. Start-up failures
  // (bad config, address in use) are logged and give a non-zero code.
  int run();

 private:
  struct Wiring;
  std::unique_ptr<Wiring> wiring_;
};

}  // namespace mcpud::app
