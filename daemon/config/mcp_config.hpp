// SPDX-License-Identifier: MIT
// The configuration of the standard MCP front doors: [mcp] (paging, user-only
// tools) and [unix_socket].
#pragma once

#include <cstddef>
#include <expected>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::config {

inline constexpr const char* kDefaultUnixSocket = "/run/mcpud/mcpud.sock";

struct McpConfig {
  std::size_t page_bytes = 8000;  // tools/list page budget, as voice-assistant firmware uses
  // Tool names (with * wildcards) listed only to clients that ask for user tools.
  std::vector<std::string> user_only_tools = {"reload", "*reboot*", "*restart*", "*reconfigure*", "*shutdown*"};
};

struct UnixSocketConfig {
  std::string path = kDefaultUnixSocket;  // "" disables the socket
  bool path_given = false;                // false: the default path, whose absence is only a warning
  std::string group;                      // owning group of the socket ("" keeps the daemon's)
  unsigned mode = 0660;
};

struct McpFrontDoors {
  McpConfig mcp;
  UnixSocketConfig unix_socket;
};

// Adds the schema of the sections above to the config schema's properties.
void add_mcp_schema(nlohmann::json& schema);
// Reads the sections from the validated document (defaults already filled in).
std::expected<McpFrontDoors, std::string> parse_mcp_sections(const nlohmann::json& document);

// Whether `name` matches `pattern`, where * matches any run of characters.
bool wildcard_match(std::string_view pattern, std::string_view name);

}  // namespace mcpud::config
