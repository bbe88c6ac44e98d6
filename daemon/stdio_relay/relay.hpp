// SPDX-License-Identifier: MIT
// The byte relay of mcpud-stdio: connects to the daemon's unix socket and copies
// stdin to it and its replies to stdout, until either side closes.
#pragma once

#include <string>

namespace mcpud::stdio_relay {

// Connects to the unix socket at `path`; returns the fd, or -1 with `error` set.
int connect_unix(const std::string& path, std::string& error);

// Copies in_fd -> socket and socket -> out_fd. When in_fd ends, the socket's
// write side is shut down and the daemon's remaining replies are still copied.
// Returns 0 when either side closed normally, 1 (with `error` set) when the
// connection failed.
int relay(int in_fd, int out_fd, int socket_fd, std::string& error);

}  // namespace mcpud::stdio_relay
