// SPDX-License-Identifier: MIT
// The daemon's logger: levels, a category per module, one line per message on
// stderr, with syslog priority prefixes when stderr is the systemd journal.
// Control characters, invalid UTF-8 and bidirectional formatting characters in
// a message are written as escapes (shown_text.hpp), so one message is one line.
#pragma once

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcpud::log {

enum class Level { Debug, Info, Warn, Error };

void set_level(Level level);
Level level();
std::optional<Level> parse_level(std::string_view name);  // "debug", "info", "warn", "error"
inline bool enabled(Level at) { return at >= level(); }

void write(Level at, std::string_view category, std::string_view message);

// Sends one entry with these fields (KEY, value) to the journal's native
// socket when stderr is the journal (mcpud under systemd); false otherwise,
// or when the journal did not take it.
bool journal_send(const std::vector<std::pair<std::string, std::string>>& fields);

// Also hands every line written from now on to `tap` (the log tail clients can
// read); an empty function removes it. One tap; lines it writes itself are not
// handed back to it.
using Tap = std::function<void(Level at, std::string_view category, std::string_view message)>;
void set_tap(Tap tap);
const char* level_name(Level at);  // "debug", "info", "warning", "error"

template <class... Parts>
void print(Level at, std::string_view category, const Parts&... parts) {
  if (!enabled(at)) return;
  std::ostringstream out;
  (out << ... << parts);
  write(at, category, out.str());
}

template <class... Parts>
void debug(std::string_view category, const Parts&... parts) {
  print(Level::Debug, category, parts...);
}
template <class... Parts>
void info(std::string_view category, const Parts&... parts) {
  print(Level::Info, category, parts...);
}
template <class... Parts>
void warn(std::string_view category, const Parts&... parts) {
  print(Level::Warn, category, parts...);
}
template <class... Parts>
void error(std::string_view category, const Parts&... parts) {
  print(Level::Error, category, parts...);
}

}  // namespace mcpud::log
