// SPDX-License-Identifier: MIT
// Who may talk to the Streamable HTTP endpoint: Origin checking (against DNS
// rebinding from web pages), the optional bearer token, and whether the client
// takes what /mcp answers with. Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mcpud::http {

enum class OriginVerdict { accepted, malformed, not_allowed };

// Judges one Origin header: one listed exactly in `allowed`, or a loopback
// origin (http(s)://localhost, 127.x.x.x or [::1], with a port from 1 to 65535
// or none) is accepted. An origin that is not scheme://host[:port] (empty, a
// path, userinfo, a bad port) is malformed; "null" and every other origin are
// not allowed.
OriginVerdict judge_origin(std::string_view origin, const std::vector<std::string>& allowed);

// Whether the Authorization header carries `token` as a bearer token. An empty
// `token` lets every request in. Compares in constant time.
bool bearer_accepted(std::string_view authorization, std::string_view token);

// Whether a POST /mcp with this Accept header takes a reply: JSON or an event
// stream. No header accepts anything (curl, simple clients); otherwise one of
// its media ranges must be application/json, text/event-stream, or a wildcard
// covering them (*/*, application/*, text/*), with a weight above q=0.
bool accepts_mcp_reply(std::string_view accept);

// Whether an Accept header names `type` itself (any letter case, not by a
// wildcard) with a weight above q=0.
bool lists_media_type(std::string_view accept, std::string_view type);

// Whether a Content-Type names JSON: application/json in any letter case, with
// or without parameters and the spaces HTTP allows around them.
bool is_json_media_type(std::string_view content_type);

// A new random session id (128 bits, hex).
std::string new_session_id();

}  // namespace mcpud::http
