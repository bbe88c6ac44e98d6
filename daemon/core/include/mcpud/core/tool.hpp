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
#include <variant>

#include <nlohmann/json.hpp>

#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/error.hpp"

namespace mcpud {

// Who set a tool's hints. Only mcpud's own are trusted to decide anything (the
// safety gate lets a call through unguarded only when mcpud says it reads); a
// bridged device's are passed on to hosts for what they are.
enum class HintsFrom : std::uint8_t { Nobody, Mcpud, Device };

// What a call does, for hosts that decide from it whether to ask a person first
// (MCP's readOnlyHint, destructiveHint, idempotentHint, openWorldHint). The
// defaults are the MCP specification's, the cautious ones: a tool nobody
// described may change and overwrite anything, beyond the board.
struct ToolAnnotations {
  bool user_only = false;              // privileged: listed to MCP clients only on request
  bool read_only = false;              // never changes the device's state
  bool destructive = true;             // a change may overwrite what was there for good (meaningless when read_only)
  bool idempotent = false;             // calling it again with the same arguments changes nothing more
  bool open_world = true;              // reaches beyond the board and what mcpud knows of it
  HintsFrom from = HintsFrom::Nobody;  // Nobody: the hints are the defaults
  std::optional<std::uint32_t> polling_interval_ms;  // suggested auto-call interval
};

// The hints of the board's own tools, which act on the board alone (closed
// world). Reads: changes nothing. DrivesLoads: sets an output to what the
// arguments say, so a repeat changes nothing more, but what the output drives
// acts in the world and mcpud cannot know it is harmless. Discards: drops what
// was held (unread serial input), for good; a repeat drops nothing more.
// TalksToADevice: bytes to a device mcpud does not know (a serial peer, an I2C
// or SPI chip): what they do, only the device knows, each time anew.
inline constexpr ToolAnnotations kReads{
    .read_only = true, .destructive = false, .idempotent = true, .open_world = false, .from = HintsFrom::Mcpud};
inline constexpr ToolAnnotations kDrivesLoads{
    .destructive = true, .idempotent = true, .open_world = false, .from = HintsFrom::Mcpud};
inline constexpr ToolAnnotations kDiscards{
    .destructive = true, .idempotent = true, .open_world = false, .from = HintsFrom::Mcpud};
inline constexpr ToolAnnotations kTalksToADevice{
    .destructive = true, .idempotent = false, .open_world = false, .from = HintsFrom::Mcpud};

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
// gets the caller, as a CallerInvoke does (an output remembers who drove it).
using TextInvoke = std::function<ToolResult(const Caller& caller, const nlohmann::json& arguments)>;

// For a tool whose answer depends on which client asks.
using CallerInvoke = std::function<void(const Caller& caller, nlohmann::json&& arguments, ToolReply&& reply)>;

struct Tool {
  std::string name;
  std::string title;  // for people: "Write a digital output" (MCP's title)
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
  // How it runs, on arguments already validated with defaults filled in: one
  // of two by type. A ToolInvoke gets the arguments alone; a CallerInvoke also
  // which client asks, for tools whose answer depends on it (a serial session
  // belongs to the client that opened it; `caller` lives only for the call,
  // keep a copy of what is needed later). The registry takes no tool without one.
  std::variant<ToolInvoke, CallerInvoke> invoke;
  // Beside `invoke`, optional: the same call, same effects, answering with its
  // result as JSON text, for callers that take text results (Caller). The
  // calls agents make most (gpio_write, gpio_read) skip building a value only
  // to serialize it.
  TextInvoke invoke_as_text;

  bool runnable() const {
    return std::visit([](const auto& run) { return static_cast<bool>(run); }, invoke);
  }
  void run(const Caller& caller, nlohmann::json&& arguments, ToolReply&& reply) const {
    if (const auto* plain = std::get_if<ToolInvoke>(&invoke)) return (*plain)(std::move(arguments), std::move(reply));
    std::get<CallerInvoke>(invoke)(caller, std::move(arguments), std::move(reply));
  }
};

// What every back room says of a tool it offers; the rest (invoke first of
// all) is the caller's to fill in.
struct ToolDescription {
  std::string owner;
  std::string name;
  std::string title;
  std::string description;
  nlohmann::json input_schema;
  nlohmann::json output_schema;
  ToolAnnotations hints;  // kReads, kDrivesLoads, ... or a tool's own
};

inline Tool make_tool(ToolDescription d) {
  Tool tool;
  tool.owner = std::move(d.owner);
  tool.name = std::move(d.name);
  tool.title = std::move(d.title);
  tool.description = std::move(d.description);
  tool.input_schema = std::move(d.input_schema);
  tool.output_schema = std::move(d.output_schema);
  tool.annotations = d.hints;
  return tool;
}

}  // namespace mcpud
