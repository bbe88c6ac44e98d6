// SPDX-License-Identifier: MIT
// Log lines into a bounded history.
#include "mcpud/core/log_tail.hpp"

#include <chrono>

namespace mcpud {

LogTail::LogTail(EventHub& hub) : recent_(hub, EventKind::LogLine, kCapacity) {
  log::set_tap(
      [this](log::Level at, std::string_view category, std::string_view message) { add(at, category, message); });
}

LogTail::~LogTail() { log::set_tap({}); }

void LogTail::add(log::Level at, std::string_view category, std::string_view message) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  std::string text(message.substr(0, kLineBytes));
  if (message.size() > kLineBytes) text += "...";
  recent_.add(std::string(category), {{"time_ms", std::chrono::duration_cast<std::chrono::milliseconds>(now).count()},
                                      {"level", log::level_name(at)},
                                      {"category", category},
                                      {"message", std::move(text)}});
}

}  // namespace mcpud
