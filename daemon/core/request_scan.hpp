// SPDX-License-Identifier: MIT
// One pass over a request line before it is parsed: how deep it nests, and which
// request objects name a JSON-RPC member (jsonrpc, id, method, params) twice or
// hold, inside one of those members, an object that names a key twice
// (`"params":{"name":"a","name":"b"}`). nlohmann::json keeps the last of two
// equal keys without a word, so such a request would silently mean something
// its sender, or a proxy that read the first key, may not have meant; the
// engine refuses it instead. Plain functions; any thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::rpc {

// A JSON-RPC member named twice in one request object (the request itself, an
// element of a batch, or either inside the envelope's payload), or a member
// whose value holds an object that names `nested` twice.
struct RepeatedMember {
  bool in_payload = false;             // under the root object's "payload"
  std::optional<std::size_t> element;  // index in the batch; none for a lone request
  std::string_view key;                // "jsonrpc", "id", "method" or "params"
  // The key repeated inside key's value, as written (quotes off; "" is a key
  // too); none when `key` itself is repeated.
  std::optional<std::string_view> nested;

  bool operator==(const RepeatedMember&) const = default;
};

struct RequestScan {
  std::size_t deepest = 0;  // as nesting_depth()
  std::vector<RepeatedMember> repeated;
  // "session_id", "type" or "payload" named twice in the root object: for an
  // envelope, which session or which request was meant is a guess.
  std::string_view repeated_envelope_member;
};

// Scans JSON text without parsing it. On text that is not JSON the results mean
// nothing (the parser refuses such text anyway) but the scan stays in bounds.
RequestScan scan_request_text(std::string_view text);

// Replaces the value of each repeated member in the parsed `message` with a
// value no JSON text parses to (a discarded value, or a binary one naming the
// nested key): the request then carries its refusal to the engine's
// validation, whichever batch element it is.
void mark_repeated_members(nlohmann::json& message, const std::vector<RepeatedMember>& repeated);

// Where a request object's JSON-RPC members are (end() when absent), looked
// up once for both the check below and the engine's validation.
struct RequestMembers {
  explicit RequestMembers(nlohmann::json& request)
      : jsonrpc(request.find("jsonrpc")),
        id(request.find("id")),
        method(request.find("method")),
        params(request.find("params")) {}
  nlohmann::json::iterator jsonrpc, id, method, params;
};

// What mark_repeated_members marked in `request`: the member ("" for none) and
// the key repeated inside its value (none when the member itself was repeated).
struct MarkedRepeat {
  std::string_view member;
  std::optional<std::string> nested;
};
MarkedRepeat repeated_member(nlohmann::json& request, const RequestMembers& found);

}  // namespace mcpud::rpc
