// SPDX-License-Identifier: MIT
// The common request line read without parsing all of it: only its params go
// through the JSON parser. Plain functions; any thread.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcpud::rpc {

// `line` as a json value when it is a request of the common shape: one object
// whose members are "jsonrpc", "id", "method" and "params", each at most once,
// no key or string escaped, ASCII jsonrpc and method strings, an id that is an
// integer of at most 18 digits or an ASCII string, and params an object.
// Nothing else (batches, envelopes, other members, any doubt): nullopt, and
// the caller parses the whole line. The value is the one json::parse gives for
// the same line; parsing only params saves about half the parse of a tools/call.
std::optional<nlohmann::json> parse_plain_request(std::string_view line);

}  // namespace mcpud::rpc
