// SPDX-License-Identifier: MIT
// A Tool: one named, schema-described operation that a back room offers to every
// front door through the ToolRegistry.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/error.hpp"

namespace mcpud {

struct ToolAnnotations {
  bool user_only = false;                            // privileged: listed to MCP clients only on request
  bool read_only = false;                            // never changes the device's state
  bool destructive = false;                          // may undo or overwrite something irreversibly
  std::optional<std::uint32_t> polling_interval_ms;  // suggested auto-call interval
};

using ToolResult = Result<nlohmann::json>;
// Called exactly once with the tool's result; may be called before invoke returns
// or later from the event loop (asynchronous tools). Move-only, so that the
// callbacks every call passes through (a shared_ptr or weak_ptr and little
// more) live inside it rather than in an allocation of their own.
using ToolReply = std::move_only_function<void(ToolResult&&) const>;
using ToolInvoke = std::function<void(nlohmann::json&& arguments, ToolReply&& reply)>;

// Who calls a tool: the door the call came through, the client behind it, and
// whether it may call tools that are for users only.
struct Caller {
  std::string door = "internal";  // "tcp", "unix", "http", "dbus", "services", ...
  std::string peer;               // "127.0.0.1:51234", "pid 42 uid 1000", ...
  std::string name;               // what the client calls itself (MCP clientInfo), when it said
  bool user_tools = true;         // may call user-only tools
  std::string refusal;            // why not, when user_tools is false: ends the NOT_AUTHORIZED message
  // Who owns what this call opens (a serial session): one per connection, HTTP
  // session or uplink, set by its door. Null for the daemon's own calls (the
  // operator's view of every session), which may use what any client owns.
  std::shared_ptr<ClientIdentity> identity;
  // Whether results may come back already serialized (set by the JSON-RPC
  // engine, which only writes them out): tools with invoke_as_text answer so.
  bool takes_text_results = false;

  // "127.0.0.1:51234 claude-code 1.2": the peer and the name, as shown to people.
  std::string label() const { return name.empty() ? peer : peer.empty() ? name : peer + " " + name; }
};

// A synchronous call answering with its result already serialized
// (rpc::serialized_result, json_rpc.hpp), or as a value when it cannot; it
// gets the caller, as invoke_for_caller does (an output remembers who drove it).
using TextInvoke = std::function<ToolResult(const Caller& caller, const nlohmann::json& arguments)>;

// For a tool whose answer depends on which client asks.
using CallerInvoke = std::function<void(const Caller& caller, nlohmann::json&& arguments, ToolReply&& reply)>;

struct Tool {
  std::string name;
  std::string description;
  nlohmann::json input_schema = nlohmann::json::object();  // JSON Schema of the arguments
  // JSON Schema (an object) of a successful result, for MCP's outputSchema;
  // null when the tool does not declare one. What it requires is always present.
  nlohmann::json output_schema;
  ToolAnnotations annotations;
  std::string owner;  // the back room that registered it, e.g. "pins", "bridge:uno"
  // Accept a string that parses as a number where the schema wants an integer or
  // a number ("9600" for 9600), as some clients send them.
  bool coerce_numeric_strings = false;
  // Runs before validation, to accept an older form of the arguments (e.g. a pin
  // name given in `pin` now that names have their own `name` property).
  std::function<void(nlohmann::json& arguments)> upgrade_arguments;
  ToolInvoke invoke;  // receives arguments already validated, defaults filled in
  // Instead of `invoke`, when set: for tools whose answer depends on which
  // client asks (a serial session belongs to the client that opened it).
  // `caller` lives only for the call; keep a copy of what is needed later.
  CallerInvoke invoke_for_caller;
  // Beside `invoke`, optional: the same call, same effects, answering with its
  // result as JSON text, for callers that take text results (Caller). The
  // calls agents make most (gpio_write, gpio_read) skip building a value only
  // to serialize it.
  TextInvoke invoke_as_text;
};

// A tool with what every back room gives: its owner, name, description, the
// schemas of its arguments and of its result, and whether it only reads. The
// rest (invoke first of all) is the caller's to fill in.
inline Tool make_tool(std::string owner, std::string name, std::string description, nlohmann::json input_schema,
                      nlohmann::json output_schema, bool read_only) {
  Tool tool;
  tool.owner = std::move(owner);
  tool.name = std::move(name);
  tool.description = std::move(description);
  tool.input_schema = std::move(input_schema);
  tool.output_schema = std::move(output_schema);
  tool.annotations.read_only = read_only;
  return tool;
}

}  // namespace mcpud
