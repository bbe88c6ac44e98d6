// SPDX-License-Identifier: MIT
// Schema and parsing of [mcp], [unix_socket] and [http].
#include "mcp_config.hpp"

#include <algorithm>

#include "mcpud/http/http_server.hpp"

namespace mcpud::config {

using nlohmann::json;

void add_mcp_schema(json& schema) {
  auto& properties = schema["properties"];
  properties["mcp"] = json::parse(R"({
    "type": "object", "additionalProperties": false, "default": {},
    "properties": {
      "page_bytes": {"type": "integer", "minimum": 512, "maximum": 16777216, "default": 8000},
      "activity_details": {"type": "boolean", "default": false},
      "user_only_tools": {"type": "array", "items": {"type": "string", "minLength": 1},
                          "default": ["reload", "*reboot*", "*restart*", "*reconfigure*", "*shutdown*"]}
    }
  })");
  properties["unix_socket"] = json::parse(R"({
    "type": "object", "additionalProperties": false, "default": {},
    "properties": {
      "path": {"type": "string", "maxLength": 107},
      "group": {"type": "string", "default": ""},
      "mode": {"type": "string", "pattern": "^0?[0-7]{3}$", "default": "0660"}
    }
  })");
  properties["http"] = json::parse(R"({
    "type": "object", "additionalProperties": false, "default": {},
    "properties": {
      "listen": {"type": "string", "default": ""},
      "token": {"type": "string", "default": ""},
      "dashboard_token": {"type": "string", "default": ""},
      "allowed_origins": {"type": "array", "items": {"type": "string", "minLength": 1}, "default": []},
      "allowed_hosts": {"type": "array", "items": {"type": "string"}, "default": []},
      "max_sessions": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 64},
      "max_sessions_per_address": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 16},
      "max_body_bytes": {"type": "integer", "minimum": 1024, "maximum": 67108864, "default": 1048576},
      "tls_cert": {"type": "string", "default": ""},
      "tls_key": {"type": "string", "default": ""}
    }
  })");
}

std::expected<io::TlsFiles, std::string> parse_tls_files(const json& table, std::string_view prefix) {
  io::TlsFiles files{table.at("tls_cert").get<std::string>(), table.at("tls_key").get<std::string>()};
  for (const auto& [key, path] : {std::pair{"tls_cert", files.certificate}, std::pair{"tls_key", files.key}}) {
    if (!path.empty() && path.front() != '/')
      return std::unexpected(std::string(prefix) + key + ": expected an absolute path, got '" + path + "'");
  }
  if (files.certificate.empty() != files.key.empty()) {
    return std::unexpected(std::string(prefix) + (files.key.empty() ? "tls_key" : "tls_cert") + ": needed with " +
                           (files.key.empty() ? "tls_cert" : "tls_key") +
                           " (the certificate chain and its private key, PEM)");
  }
  return files;
}

std::expected<McpSections, std::string> parse_mcp_sections(const json& document) {
  McpSections out;
  const auto& mcp = document.at("mcp");
  out.mcp.page_bytes = mcp.at("page_bytes").get<std::size_t>();
  out.mcp.activity_details = mcp.at("activity_details").get<bool>();
  out.mcp.user_only_tools = mcp.at("user_only_tools").get<std::vector<std::string>>();
  const auto& unix_socket = document.at("unix_socket");
  // Not a schema default: an absent path is told apart from the same path given.
  out.unix_socket.path = kDefaultUnixSocket;
  if (unix_socket.contains("path")) {
    out.unix_socket.path = unix_socket["path"].get<std::string>();
    out.unix_socket.path_given = true;
    if (!out.unix_socket.path.empty() && out.unix_socket.path.front() != '/') {
      return std::unexpected("unix_socket.path: expected an absolute path, got '" + out.unix_socket.path + "'");
    }
  }
  out.unix_socket.group = unix_socket.at("group").get<std::string>();
  out.unix_socket.mode = static_cast<unsigned>(std::stoul(unix_socket.at("mode").get<std::string>(), nullptr, 8));
  const auto& http = document.at("http");
  out.http.listen = http.at("listen").get<std::string>();
  out.http.token = http.at("token").get<std::string>();
  out.http.dashboard_token = http.at("dashboard_token").get<std::string>();
  // The MCP token is an agent's: with it, an agent could approve its own calls.
  if (!out.http.dashboard_token.empty() && out.http.dashboard_token == out.http.token)
    return std::unexpected(
        "http.dashboard_token: must differ from http.token (an MCP client holding that one could approve its own "
        "calls)");
  out.http.allowed_origins = http.at("allowed_origins").get<std::vector<std::string>>();
  out.http.allowed_hosts = http.at("allowed_hosts").get<std::vector<std::string>>();
  if (auto checked = http::check_allowed_hosts(out.http.allowed_hosts); !checked)
    return std::unexpected(checked.error());
  out.http.max_sessions = http.at("max_sessions").get<std::size_t>();
  out.http.max_sessions_per_address = http.at("max_sessions_per_address").get<std::size_t>();
  out.http.max_body_bytes = http.at("max_body_bytes").get<std::size_t>();
  auto tls = parse_tls_files(http, "http.");
  if (!tls) return std::unexpected(tls.error());
  out.http.tls = std::move(*tls);
  return out;
}

}  // namespace mcpud::config
