// SPDX-License-Identifier: MIT
// Logger output: human-readable on a terminal, priority-prefixed for journald.
#include "mcpud/core/log.hpp"

#include <cerrno>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "journal_state.hpp"
#include "mcpud/core/shown_text.hpp"

namespace mcpud::log {
namespace {

Level g_level = Level::Info;
Tap g_tap;
bool g_in_tap = false;  // a line logged while the tap runs is not tapped again

// systemd sets JOURNAL_STREAM to "dev:ino" of the stream it connected; when it is
// our stderr, journald adds timestamps itself and reads "<N>" priority prefixes.
bool stderr_is_journal() {
  const char* stream = std::getenv("JOURNAL_STREAM");
  struct stat st {};
  if (!stream || fstat(STDERR_FILENO, &st) != 0) return false;
  const std::string expected = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  return expected == stream;
}

const bool g_journal = stderr_is_journal();

int syslog_priority(Level at) {
  switch (at) {
    case Level::Debug:
      return 7;
    case Level::Info:
      return 6;
    case Level::Warn:
      return 4;
    case Level::Error:
      return 3;
  }
  return 6;
}

}  // namespace

const char* level_name(Level at) {
  switch (at) {
    case Level::Debug:
      return "debug";
    case Level::Info:
      return "info";
    case Level::Warn:
      return "warning";
    case Level::Error:
      return "error";
  }
  return "info";
}

void set_level(Level at) { g_level = at; }
Level level() { return g_level; }

std::optional<Level> parse_level(std::string_view name) {
  if (name == "debug") return Level::Debug;
  if (name == "info") return Level::Info;
  if (name == "warn" || name == "warning") return Level::Warn;
  if (name == "error") return Level::Error;
  return std::nullopt;
}

void write(Level at, std::string_view category, std::string_view message) {
  // Messages quote what peers sent (device names, debug lines): a newline in one
  // must not forge a log line, nor an escape sequence reach the terminal.
  std::string shown;
  if (has_hidden_characters(message)) {
    shown = escaped_text(message);
    message = shown;
  }
  std::string line;
  line.reserve(message.size() + 48);
  if (g_journal) {
    line += '<';
    line += std::to_string(syslog_priority(at));
    line += '>';
  } else {
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    struct tm local {};
    localtime_r(&now, &local);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S ", &local);
    line += stamp;
    line += level_name(at);
    line += ' ';
  }
  line += '[';
  line += category;
  line += "] ";
  line += message;
  line += '\n';
  // One write per line so lines from a crash handler or child never interleave.
  [[maybe_unused]] auto written = ::write(STDERR_FILENO, line.data(), line.size());
  if (g_tap && !g_in_tap) {
    g_in_tap = true;
    g_tap(at, category, message);
    g_in_tap = false;
  }
}

bool journal_active() { return g_journal; }

bool journal_send(const std::vector<std::pair<std::string, std::string>>& fields) {
  if (!g_journal) return false;
  // The native protocol: KEY=value lines, or for a value with a newline KEY,
  // a newline, its length as 64-bit little endian, the value and a newline.
  std::string datagram;
  for (const auto& [key, value] : fields) {
    datagram += key;
    if (value.find('\n') == std::string::npos) {
      datagram += '=';
    } else {
      datagram += '\n';
      std::uint64_t size = value.size();
      for (int i = 0; i < 8; ++i, size >>= 8) datagram += static_cast<char>(size & 0xff);
    }
    datagram += value;
    datagram += '\n';
  }
  // One socket for the process's life, and never a wait: a journald that falls
  // behind must not stall the event loop. A record it had no room for is
  // dropped (the gap in MCPUD_AUDIT_SEQ shows it), as journald's own rate
  // limit drops them.
  static const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return false;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  constexpr std::string_view kJournalSocket = "/run/systemd/journal/socket";
  kJournalSocket.copy(address.sun_path, sizeof address.sun_path - 1);
  const auto sent = ::sendto(fd, datagram.data(), datagram.size(), MSG_NOSIGNAL | MSG_DONTWAIT,
                             reinterpret_cast<const sockaddr*>(&address), sizeof address);
  if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;  // dropped, not sent elsewhere
  return sent == static_cast<ssize_t>(datagram.size());
}

void set_tap(Tap tap) { g_tap = std::move(tap); }

}  // namespace mcpud::log
