// SPDX-License-Identifier: MIT
// The serial tools' shared parts: schema fragments of their arguments, the readers
// of those arguments, and the shape of a read's reply.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "encoding.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/serial/serial_service.hpp"
#include "mcpud/serial/serial_tools.hpp"

namespace mcpud::serial {

inline constexpr std::uint32_t kMaxTimeoutMs = 300000;
inline constexpr std::size_t kMaxReadBytes = 65536;

namespace schema_parts {
nlohmann::json object(nlohmann::json properties, nlohmann::json required);
nlohmann::json session_id();
nlohmann::json encoding(const char* what);
nlohmann::json timeout_ms(const char* what);
nlohmann::json max_bytes(std::size_t default_value);
nlohmann::json boolean(const char* what, bool default_value);
// A string of min_length to max_length characters.
nlohmann::json text(std::size_t min_length, std::size_t max_length, const char* what);
// An integer from min to max, with a default when given.
nlohmann::json integer(std::int64_t min, std::int64_t max, const char* what,
                       std::optional<std::int64_t> default_value = std::nullopt);
}  // namespace schema_parts

// Registers one serial tool; numbers sent as strings ("9600") are accepted.
// `output`: the JSON Schema of a successful result (MCP outputSchema).
// `invoke` learns who calls: sessions are their opener's.
// `hints`: what a call does (tool.hpp).
void add_tool(ToolRegistry& registry, std::string name, std::string title, std::string description,
              nlohmann::json schema, nlohmann::json output, CallerInvoke invoke, ToolAnnotations hints);

// serial_connect: opens a session beside the others, nothing lost; a second
// call opens another (or finds the port taken).
inline constexpr ToolAnnotations kOpensASession{
    .destructive = false, .idempotent = false, .open_world = false, .from = HintsFrom::Mcpud};

// Output schemas of the serial tools: an object with these typed properties, of
// which `required` are always present.
nlohmann::json output_schema(nlohmann::json properties, nlohmann::json required = nlohmann::json::array());
// What every read (serial_read*, serial_exec) answers, plus `more`.
nlohmann::json read_output(nlohmann::json more = nlohmann::json::object());

Encoding encoding_arg(const nlohmann::json& args, const char* key = "encoding");
// timeout_ms if given, else the session's default.
Millis timeout_arg(const nlohmann::json& args, const SerialSession& session);
// The part of a read every reading tool takes from its arguments: max_bytes,
// timeout_ms (else the session's default) and, for utf8, whole characters.
ReadRequest read_request(const nlohmann::json& args, const SerialSession& session);
// A literal (in `pattern_encoding`) or, with regex true, a regular expression.
// INVALID_ARGUMENT names `key` when it is empty, malformed or undecodable.
Result<std::shared_ptr<const Pattern>> pattern_arg(const nlohmann::json& args, const char* key);

// {data, bytes_read, timed_out, ended, encoding, invalid_utf8?, bytes_lost, device_disconnected?}
nlohmann::json read_reply(const ReadOutcome& outcome, Encoding encoding);

// Runs `then` with the session named by args.session_id, or replies
// UNKNOWN_SESSION when `caller` has no session of that id.
template <class Then>
void with_session(SerialService& service, const Caller& caller, const nlohmann::json& args, const ToolReply& reply,
                  Then&& then) {
  auto session = service.find(args.at("session_id").get_ref<const std::string&>(), caller.identity);
  if (!session) {
    reply(std::unexpected(session.error()));
    return;
  }
  then(*session);
}

// How long a write of `bytes` may take by default: twice its time on the wire, plus a second.
Millis default_write_timeout(const SerialSession& session, std::size_t bytes);
// args[key] decoded from `encoding`, plus the session's newline when
// append_newline says so (default: true for utf8, false for hex and base64).
Result<std::string> outgoing(const nlohmann::json& args, const char* key, Encoding encoding,
                             const SerialSession& session);
// Adds regex and pattern_encoding to the properties of a tool that takes a pattern.
nlohmann::json pattern_properties(nlohmann::json properties);
// A ReadDone that replies with read_reply(), after `shape` adds tool-specific fields.
ReadDone reply_with(ToolReply reply, Encoding encoding,
                    std::function<void(const ReadOutcome&, nlohmann::json&)> shape = {});

inline Error invalid_argument(std::string message) {
  return Error::domain(DomainError::InvalidArgument, std::move(message));
}

}  // namespace mcpud::serial
