// SPDX-License-Identifier: MIT
// Reading a modern request's _meta (MCP 2026-07-28, basic/index "Per-request protocol fields").
#include "mcpud/dialects/mcp_request.hpp"

#include <algorithm>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/dialects/mcp_dialect.hpp"

namespace mcpud::dialects {
namespace {

using nlohmann::json;

const json* meta_of(const json& params) {
  if (!params.is_object()) return nullptr;
  const auto meta = params.find("_meta");
  return meta != params.end() && meta->is_object() ? &*meta : nullptr;
}

const json* member(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string meta_key(std::string_view key) { return "params._meta[\"" + std::string(key) + "\"]"; }

Error unsupported_version(const json& requested) {
  Error error{kMcpUnsupportedVersion, "Unsupported protocol version: " + rpc::dump(requested) +
                                          " (this server speaks " + rpc::dump(supported_versions()) + ")"};
  error.data_members = rpc::dump(json{{"supported", supported_versions()}, {"requested", requested}});
  return error;
}

}  // namespace

bool names_protocol_version(const json& params) {
  const auto* meta = meta_of(params);
  return meta && meta->contains(kMetaProtocolVersion);
}

Result<McpRequest> modern_request(const json& params) {
  const auto* meta = meta_of(params);
  const auto* version = meta ? member(*meta, kMetaProtocolVersion) : nullptr;
  if (!version || version->is_null())
    return std::unexpected(Error::invalid_params(meta_key(kMetaProtocolVersion) + ": required"));
  const auto modern = std::ranges::find_if(kModernMcpVersions, [&](std::string_view v) {
    return version->is_string() && version->get_ref<const std::string&>() == v;
  });
  if (modern == std::end(kModernMcpVersions)) return std::unexpected(unsupported_version(*version));
  McpRequest request{.modern = true, .version = std::string(*modern)};
  const auto* capabilities = member(*meta, kMetaClientCapabilities);
  if (!capabilities)
    return std::unexpected(
        Error::invalid_params(meta_key(kMetaClientCapabilities) + ": required (an object; {} for none)"));
  if (!capabilities->is_object())
    return std::unexpected(Error::invalid_params(meta_key(kMetaClientCapabilities) + ": expected object, got " +
                                                 capabilities->type_name()));
  request.client_capabilities = *capabilities;
  if (const auto* level = member(*meta, kMetaLogLevel); level && !level->is_null()) {
    const auto parsed = level->is_string() ? parse_mcp_log_level(level->get_ref<const std::string&>()) : std::nullopt;
    if (!parsed)
      return std::unexpected(Error::invalid_params(meta_key(kMetaLogLevel) + ": " + rpc::dump(*level) +
                                                   " is not an MCP log level (debug ... emergency)"));
    request.log_level = parsed;
  }
  return request;
}

json supported_versions() {
  json out = json::array();
  for (const auto version : kModernMcpVersions) out.push_back(version);
  for (auto it = std::rbegin(kMcpVersions); it != std::rend(kMcpVersions); ++it) out.push_back(*it);
  return out;
}

}  // namespace mcpud::dialects
