// SPDX-License-Identifier: MIT
// The session-free path of Streamable HTTP (MCP 2026-07-28): one POST carries
// one JSON-RPC request, whose MCP-Protocol-Version, Mcp-Method and Mcp-Name
// headers must agree with its body; no session, no GET stream. A function of
// the request and a context, apart from the connection (a listen's events go
// to the context's stream), so unit tests call it without sockets (as Boost.Beast's examples keep handle_request apart
// from the session). Event loop only.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http_session.hpp"
#include "mcpud/core/json_rpc.hpp"

namespace mcpud::http {

// What the path reads of one POST /mcp (Host, Origin and the token are checked before).
struct ModernRequest {
  std::string_view body;
  std::string_view protocol_version;       // MCP-Protocol-Version
  std::optional<std::string_view> method;  // Mcp-Method
  std::optional<std::string_view> name;    // Mcp-Name (a Base64 sentinel decoded here)
  std::string_view accept;                 // Accept
};

// The answer: a status and the JSON-RPC response (an error one for every
// refusal, with the request's id when it could be read); "" with 202.
struct ModernResponse {
  unsigned status = 200;
  bool sse = false;  // a one-event text/event-stream (the client accepts nothing else)
  std::string body;
};

struct ModernContext {
  rpc::Engine& engine;
  std::vector<std::string> versions;  // every version mcpud speaks, the modern ones first
  std::vector<std::string> modern;    // those a request may name in MCP-Protocol-Version and _meta
  std::string peer;                   // the client's address, the caller's peer
  std::size_t reply_bytes_limit = 0;  // what one reply may take (HttpOptions::queue_bytes)
  // Where a subscriptions/listen's notifications go: the connection, whose
  // response becomes an event stream at the first of them.
  std::weak_ptr<EventStream> stream;
};

using ModernDone = std::move_only_function<void(ModernResponse) const>;

// Serves one request; `done` is called exactly once, now or when the call
// answers. Returns the request's client, whose in_flight calls the connection
// cancels when its peer leaves first (null when no call was made).
std::shared_ptr<rpc::Client> serve_modern(const ModernRequest& request, const ModernContext& context, ModernDone done);

// Whether an MCP-Protocol-Version header selects this path: present and not a
// legacy version (an unknown one is answered here, with -32022).
bool selects_modern_path(std::string_view header, const std::vector<std::string>& legacy_versions);

// A header value as sent: plain, or "=?base64?...?=" (the UTF-8 bytes in Base64);
// nothing when the sentinel holds no valid Base64.
std::optional<std::string> decode_header_value(std::string_view value);

}  // namespace mcpud::http
