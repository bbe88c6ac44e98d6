// SPDX-License-Identifier: MIT
// The standard MCP dialect: initialize (version negotiation), ping, tools/list
// (paged, user-only tools on request), tools/call, logging/setLevel and pins as
// resources, served from the same registry as MCP/U.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/event_hub.hpp"

namespace mcpud::dialects {

// The legacy protocol versions mcpud speaks (negotiated by initialize), oldest first.
inline constexpr std::string_view kMcpVersions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};
// The modern (stateless) versions: each request names one in its _meta.
inline constexpr std::string_view kModernMcpVersions[] = {"2026-07-28"};

// The _meta keys of a modern request (MCP 2026-07-28, basic/index "_meta").
inline constexpr std::string_view kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kMetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kMetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view kMetaServerInfo = "io.modelcontextprotocol/serverInfo";
// 2026-07-28's UnsupportedProtocolVersionError (data {supported, requested}).
inline constexpr int kMcpUnsupportedVersion = -32022;

// What the MCP dialect needs from the daemon; functions so a reload shows at once.
struct McpServer {
  std::function<std::string()> device;             // serverInfo.name
  std::string version;                             // serverInfo.version
  std::function<std::size_t()> page_bytes;         // tools/list page budget
  std::function<nlohmann::json()> list_resources;  // [{uri, name, description, mimeType}]
  // Replies with the resource's JSON value, at once or when it has been read.
  std::function<void(std::string_view uri, ToolReply reply)> read_resource;
  // A pin, serial session or tool of that URI exists for `caller` (a serial
  // session only for the client that owns it).
  std::function<bool(std::string_view uri, const Caller& caller)> resource_exists;
  // Runs `then` once the tool set is worth listing: at start, after the
  // configured bridges' discovery (bounded); at once otherwise.
  std::function<void(std::move_only_function<void()> then)> when_tools_settled;
};

// MCP's code for an unknown resource (the specification's "Resource not found").
inline constexpr int kMcpResourceNotFound = -32002;
// How long (ms) a modern client may keep a result (docs/mcp.md "Caching"):
// discover's identity changes only on a reload; the tool set when a bridged
// device comes or goes (notified on subscriptions/listen); the resource list on
// a reload; the templates never. resources/read is a live value: 0.
inline constexpr std::uint32_t kDiscoverTtlMs = 60'000;
inline constexpr std::uint32_t kToolsListTtlMs = 10'000;
inline constexpr std::uint32_t kResourcesListTtlMs = 10'000;
inline constexpr std::uint32_t kTemplatesTtlMs = 3'600'000;

// The version from which invalid tool arguments are tool results (isError) rather
// than JSON-RPC errors, so the model can correct itself.
inline constexpr std::string_view kInputErrorsAsResultsSince = "2025-11-25";

void install_mcp_dialect(rpc::Dispatcher& dispatcher, EventHub& hub, McpServer server);

// The client's version when mcpud speaks it, else the newest mcpud speaks.
std::string negotiate_version(const nlohmann::json& requested);

// One tools/list page: tools from the one named by params.cursor, as many as fit
// in `page_bytes` of JSON (at least one), with nextCursor when more remain.
// User-only tools are listed only with params.withUserTools.
Result<nlohmann::json> list_tools_page(const ToolRegistry& registry, const nlohmann::json& params,
                                       std::size_t page_bytes);

struct CallResultForm {
  bool input_errors_as_results = false;  // invalid arguments as isError results (2025-11-25 on)
  bool modern = false;                   // a 2026-07-28 result: with resultType
};

// A tool's outcome as a tools/call result: the JSON as text content plus
// structuredContent, or isError with a readable message. Unknown tools stay
// JSON-RPC errors; invalid arguments too unless `form.input_errors_as_results`.
ToolResult call_result(ToolResult outcome, CallResultForm form = {});

}  // namespace mcpud::dialects
