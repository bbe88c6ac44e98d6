// SPDX-License-Identifier: MIT
// mcpud's command line: run the daemon, or check a configuration file.
#include <malloc.h>

#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "daemon.hpp"
#include "mcp_config.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/hal/sim_buses.hpp"
#include "mcpud/pins/pin_service.hpp"
#include "mcpud/version.hpp"

namespace {

constexpr const char* kDefaultConfig = "/etc/mcpud/mcpud.toml";

// Builds the board's pins without taking any hardware (a simulated board's
// 1-Wire thermometers on buses of its own).
std::expected<void, std::string> check_board(const mcpud::config::Config& config) {
  std::unique_ptr<mcpud::hal::SimBuses> sim_buses;
  if (mcpud::config::uses_simulated_buses(config)) {
    auto made = mcpud::hal::SimBuses::make();
    if (!made) return std::unexpected(made.error().message);
    sim_buses = std::move(*made);
  }
  return mcpud::pins::check_board(config.board, config.device, sim_buses.get());
}

// Validates a configuration as the daemon would load it and prints the result.
int check_config(const mcpud::app::Options& options) {
  auto config = mcpud::app::load_config(options);
  if (config) {
    if (auto board = check_board(*config); !board) config = std::unexpected(board.error());
  }
  if (!config) {
    std::cerr << "mcpud: configuration invalid: " << config.error() << "\n";
    return 1;
  }
  auto resolved = config->resolved;
  resolved["listen"] = config->listen;
  std::cout << resolved.dump(2) << "\n";
  std::cerr << "mcpud: " << options.config_path.value_or("built-in configuration") << ": OK, "
            << config->board.pins.size() << " pins\n";
  return 0;
}

// A burst of large replies (a batch, a slow reader) must not keep its memory
// once sent: buffers from 256 KiB up are mapped and unmapped on their own, and
// the heap's free top is returned at 1 MiB. Setting the thresholds also stops
// glibc from raising them after the first large free.
void give_back_burst_memory() {
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
}

}  // namespace

int main(int argc, char** argv) {
  give_back_burst_memory();
  CLI::App cli{"mcpud: MCP/U and MCP device daemon for embedded Linux boards"};
  mcpud::app::Options options;
  std::string config_path;
  std::string check_path;
  std::string log_level;
  cli.add_option("-c,--config", config_path,
                 std::string("Configuration file (default ") + kDefaultConfig +
                     " if it exists, else the built-in simulated board)");
  cli.add_option(
      "-l,--listen", options.listen,
      "Serve MCP/U on TCP ADDR:PORT, e.g. 127.0.0.1:3000 or [::1]:3000 (repeatable; replaces the config's list)");
  cli.add_option("-t,--tty", options.ttys,
                 "Serve MCP/U on a serial port PATH[:BAUD], e.g. /dev/ttyGS0:115200 (repeatable)");
  cli.add_flag("--stdio", options.mcp.stdio,
               "Serve one MCP (or MCP/U) client on stdin/stdout and open no listeners; logs go to stderr");
  cli.add_option("--unix", options.mcp.unix_socket,
                 std::string("Serve MCP and MCP/U on this unix socket (default ") + mcpud::config::kDefaultUnixSocket +
                     "; \"\" disables)");
  cli.add_option(
      "--http", options.mcp.http,
      "Serve MCP Streamable HTTP at http://ADDR:PORT/mcp, e.g. 127.0.0.1:8080 (replaces [http] listen; \"\" disables)");
  cli.add_option("--log-level", log_level, "debug, info, warn or error")
      ->check(CLI::IsMember({"debug", "info", "warn", "warning", "error"}));
  std::string dbus_bus;
  cli.add_option("--dbus", dbus_bus,
                 "Serve the io.mcpud.Daemon1 control interface on the system bus (default), the session bus, or none")
      ->check(CLI::IsMember({"system", "session", "none"}));
  cli.add_option("--check-config", check_path, "Validate FILE, print the resolved configuration and exit");
  cli.add_flag_callback(
      "-V,--version",
      [] {
        std::cout << "mcpud " << mcpud::kVersion << "\n";
        throw CLI::Success();
      },
      "Print the version and exit");
  CLI11_PARSE(cli, argc, argv);

  if (!log_level.empty()) {
    options.log_level = log_level == "warning" ? "warn" : log_level;
    mcpud::log::set_level(*mcpud::log::parse_level(log_level));
  }
  if (!dbus_bus.empty()) options.dbus = dbus_bus;
  // A host's own `mcpud --stdio` is one user's private server: it claims no bus
  // name (the system daemon may own it) unless asked with --dbus.
  if (options.mcp.stdio && dbus_bus.empty()) options.dbus = "none";
  if (!check_path.empty()) {
    options.config_path = check_path;
    return check_config(options);
  }
  if (!config_path.empty()) {
    options.config_path = config_path;
  } else if (std::error_code ec; std::filesystem::exists(kDefaultConfig, ec)) {
    options.config_path = kDefaultConfig;
  }
  return mcpud::app::Daemon(std::move(options)).run();
}
