// SPDX-License-Identifier: MIT
// The common request line read without parsing all of it: only its params go
// through the JSON parser. Plain functions; any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcpud::rpc {

// The members of a request line of the common shape: one object whose members
// are "jsonrpc", "id", "method" and "params", each at most once, no key or
// string escaped, ASCII jsonrpc and method strings, an id that is an integer of
// at most 18 digits or an ASCII string, and params an object. Strings are views
// into the line.
struct PlainRequest {
  std::optional<std::string_view> jsonrpc;
  std::optional<nlohmann::json> id;  // typed as the parser types it
  std::optional<std::string_view> method;
  std::optional<nlohmann::json> params;
  // The reader took params to the parser (an escape, a fraction, ...).
  bool parsed_params = false;
  // How deep the line nests, as nesting_depth() counts; 0 (unknown) when the
  // parser read params.
  std::size_t depth = 0;

  // The value json::parse gives for the line.
  nlohmann::json to_json() &&;
};

// `line`'s members when it is a request of the common shape. Nothing else
// (batches, envelopes, other members, any doubt): nullopt, and the caller parses
// the whole line. Parsing only params, and most params without the parser's
// lexer, saves most of the parse of a call.
std::optional<PlainRequest> read_plain_request(std::string_view line);

// The same as a json value: the one json::parse gives for the line.
std::optional<nlohmann::json> parse_plain_request(std::string_view line);

}  // namespace mcpud::rpc
