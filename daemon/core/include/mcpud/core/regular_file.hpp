// SPDX-License-Identifier: MIT
// Reading a file a configuration names (mcpud.toml itself, a token or password
// file): only a regular file, and only up to a bound. Plain function; any thread.
#pragma once

#include <cstddef>
#include <expected>
#include <string>

namespace mcpud {

// The contents of `path`, or an error that starts with the path and says why:
// it cannot be opened, it is a directory, it is not a regular file (a FIFO,
// whose open and read would block; a device such as /dev/zero, which never
// ends), or it holds more than `max_bytes` (counted as read, so a file that
// grows meanwhile is bounded too). Nothing of a file that is refused is read.
std::expected<std::string, std::string> read_regular_file(const std::string& path, std::size_t max_bytes);

}  // namespace mcpud
