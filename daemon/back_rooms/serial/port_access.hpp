// SPDX-License-Identifier: MIT
// Which ports a client may open: those [serial] allowed_ports names (shell
// globs, matched against the path the client gave and the device it resolves
// to), and of those only serial ports (io::resolve_serial_device). Nothing is
// opened before both checks pass, and a refused path gets the same answer
// whether it exists or not, so the tools tell nothing about other files.
// Plain functions of the configuration; any thread.
#pragma once

#include <string>

#include "mcpud/core/error.hpp"
#include "mcpud/io/tty_device.hpp"
#include "mcpud/serial/serial_config.hpp"

namespace mcpud::serial {

// The path a client means: "ttyUSB0" is /dev/ttyUSB0.
std::string port_path(const std::string& port);

// Whether `path` matches the allow list (every path while the configuration
// allows any serial port).
bool port_allowed(const SerialConfig& config, const std::string& path);

// Checks `path` (from port_path) before anything opens it; the device to open.
// Errors: NOT_AUTHORIZED when the configuration allows no port, or when `path`
// is not an allowed serial port (one message for every reason), or when it is
// allowed only as a link that another user could have made or swapped (a link
// in a directory others may write to; a link to a pty not made by mcpud's own
// user or root), with that reason; OPEN_ERROR for
// an allowed path with no device behind it (unplugged), or when the kernel's
// list of tty drivers cannot be read.
Result<io::TtyDevice> check_port(const SerialConfig& config, const std::string& path);

}  // namespace mcpud::serial
