// SPDX-License-Identifier: MIT
// mcpud-stdio-floor: the floor of an MCP server over stdio, for run-mcp-bench.sh.
// It answers every request line with a fixed result carrying the request's id,
// and nothing else: no parsing beyond finding the id, no tool, no validation;
// the replies to one read go out in one write. No server doing real work over
// the same pipes and driver can answer faster.
#include <unistd.h>

#include <cerrno>
#include <string>
#include <string_view>

namespace {

// The id's JSON text in a request line (a number or a string without escaped
// quotes, as the benchmark's driver sends), or empty for a notification.
std::string_view id_of(std::string_view line) {
  const auto key = line.find("\"id\":");
  if (key == std::string_view::npos) return {};
  auto id = line.substr(key + 5);
  if (id.empty()) return {};
  const auto end = id.front() == '"' ? id.find('"', 1) + 1 : id.find_first_of(",}");
  return id.substr(0, end);
}

bool write_all(std::string_view bytes) {
  while (!bytes.empty()) {
    const auto n = ::write(STDOUT_FILENO, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

int main() {
  std::string pending;  // a line not yet complete
  std::string replies;
  char chunk[65536];
  for (;;) {
    const auto n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    pending.append(chunk, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n', start)) {
      const auto id = id_of(std::string_view(pending).substr(start, end - start));
      start = end + 1;
      if (id.empty()) continue;
      replies += R"({"jsonrpc":"2.0","id":)";
      replies += id;
      replies += R"(,"result":{"content":[],"structuredContent":{},"isError":false}})"
                 "\n";
    }
    pending.erase(0, start);
    if (!write_all(replies)) return 1;
    replies.clear();
  }
}
