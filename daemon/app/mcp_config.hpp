// SPDX-License-Identifier: MIT
// The configuration of the standard MCP front doors: [mcp] (paging, user-only
// tools), [unix_socket] and [http].
// Plain data and functions without state; any thread.
#pragma once

#include <cstddef>
#include <expected>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/tool.hpp"
#include "mcpud/io/tls_server.hpp"

namespace mcpud::config {

inline constexpr const char* kDefaultUnixSocket = "/run/mcpud/mcpud.sock";

// Defaults are the schema's (add_mcp_schema), read in by parse_mcp_sections.
struct McpConfig {
  std::size_t page_bytes{};  // tools/list page budget, as voice-assistant firmware uses
  bool activity_details{};   // mcpu://daemon/activity carries each call's arguments and result
  // Tool names (with * wildcards) listed only to clients that ask for user tools.
  std::vector<std::string> user_only_tools;
};

struct UnixSocketConfig {
  std::string path;   // kDefaultUnixSocket unless given; "" disables the socket
  bool path_given{};  // false: the default path, whose absence is only a warning
  std::string group;  // owning group of the socket ("" keeps the daemon's)
  unsigned mode{};
};

struct HttpConfig {
  std::string listen;                        // "127.0.0.1:8080"; "" disables Streamable HTTP
  std::string token;                         // bearer token required when not empty
  std::string dashboard_token;               // the dashboard's safety controls (/api/safety); "": off
  std::vector<std::string> allowed_origins;  // besides http(s)://localhost / 127.0.0.1 / [::1]
  std::vector<std::string> allowed_hosts;    // Host names besides loopback ones; [] on a non-loopback address: any
  std::size_t max_sessions{};
  std::size_t max_sessions_per_address{};
  std::size_t max_body_bytes{};
  io::TlsFiles tls;  // tls_cert and tls_key: HTTPS when set
};

struct McpSections {
  McpConfig mcp;
  UnixSocketConfig unix_socket;
  HttpConfig http;
};

// Adds the schema of the sections above to the config schema's properties.
void add_mcp_schema(nlohmann::json& schema);
// Reads the sections from the validated document (defaults already filled in).
std::expected<McpSections, std::string> parse_mcp_sections(const nlohmann::json& document);
// tls_cert and tls_key of `table` (validated): both or neither, absolute paths.
// Errors name the key after `prefix` ("http.").
std::expected<io::TlsFiles, std::string> parse_tls_files(const nlohmann::json& table, std::string_view prefix);

}  // namespace mcpud::config
