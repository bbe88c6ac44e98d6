// SPDX-License-Identifier: MIT
// Sending, the reads that wait (for data, a line, a pattern, a quiet line),
// exec (send then read), and modem lines with boot capture.
#include "mcpud/serial/serial_tools.hpp"
#include "tool_arguments.hpp"

namespace mcpud::serial {
namespace {

using nlohmann::json;
namespace parts = schema_parts;

void add_send(ToolRegistry& registry, SerialService& service) {
  const json properties = {
      {"session_id", parts::session_id()},
      {"data", {{"type", "string"}, {"maxLength", 1048576}, {"description", "What to send, in `encoding`"}}},
      {"append_newline",
       {{"type", "boolean"},
        {"description", "Append the session's newline (default true for utf8, false for hex/base64)"}}},
      {"encoding", parts::encoding("How `data` is written: utf8 text, hex or base64 bytes")},
      {"timeout_ms", parts::timeout_ms("Give up (TIMEOUT) if the port has not taken every byte by then")}};
  add_tool(
      registry, "serial_send", "Send to a serial session",
      "Send text or bytes over a serial session; returns bytes_written",
      parts::object(properties, {"session_id", "data"}),
      output_schema({{"bytes_written", {{"type", "integer"}}}}, {"bytes_written"}),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          auto bytes = outgoing(args, "data", encoding_arg(args), *session);
          if (!bytes) return reply(std::unexpected(bytes.error()));
          const auto timeout = args.contains("timeout_ms") ? Millis(args["timeout_ms"].get<std::uint32_t>())
                                                           : default_write_timeout(*session, bytes->size());
          session->write(std::move(*bytes), timeout, [reply = std::move(reply)](Result<std::size_t> written) {
            if (!written) return reply(std::unexpected(written.error()));
            reply(json{{"bytes_written", *written}});
          });
        });
      },
      kTalksToADevice);
}

void add_read(ToolRegistry& registry, SerialService& service) {
  const json properties = {
      {"session_id", parts::session_id()},
      {"max_bytes", parts::max_bytes(1024)},
      {"timeout_ms", parts::timeout_ms("How long to wait for the first byte (default: the session's timeout_ms)")},
      {"quiet_ms",
       parts::integer(1, kMaxTimeoutMs, "After the first byte, keep reading until the line is quiet this long")},
      {"encoding", parts::encoding("How data is returned: utf8 text (invalid bytes flagged), hex or base64")}};
  add_tool(
      registry, "serial_read", "Read from a serial session",
      "Read buffered or arriving bytes; waits up to timeout_ms for the first one (timed_out when none came)",
      parts::object(properties, {"session_id"}), read_output(),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          const auto encoding = encoding_arg(args);
          auto request = read_request(args, *session);
          if (args.contains("quiet_ms")) request.quiet = Millis(args["quiet_ms"].get<std::uint32_t>());
          session->read(std::move(request), reply_with(std::move(reply), encoding));
        });
      },
      kReads);
}

void add_read_line(ToolRegistry& registry, SerialService& service) {
  const json properties = {{"session_id", parts::session_id()},
                           {"max_bytes", parts::max_bytes(4096)},
                           {"timeout_ms", parts::timeout_ms("How long to wait for the end of the line (default 1000)")},
                           {"encoding", parts::encoding("How the line is returned")}};
  auto schema = parts::object(properties, {"session_id"});
  schema["properties"]["timeout_ms"]["default"] = 1000;
  add_tool(
      registry, "serial_read_line", "Read a line from a serial session",
      "Read one line (up to \"\\n\", returned without \"\\r\\n\"); line_complete false on timeout or max_bytes",
      std::move(schema), read_output({{"line_complete", {{"type", "boolean"}}}}),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          const auto encoding = encoding_arg(args);
          auto request = read_request(args, *session);
          request.until = *Pattern::literal("\n");
          session->read(std::move(request), [reply = std::move(reply), encoding](Result<ReadOutcome> outcome) {
            if (!outcome) return reply(std::unexpected(outcome.error()));
            const bool complete = outcome->end == ReadEnd::Match;
            if (complete) outcome->bytes.pop_back();
            if (complete && !outcome->bytes.empty() && outcome->bytes.back() == '\r') outcome->bytes.pop_back();
            json out = read_reply(*outcome, encoding);
            out["line_complete"] = complete;
            reply(std::move(out));
          });
        });
      },
      kReads);
}

void add_read_until(ToolRegistry& registry, SerialService& service) {
  const json properties = pattern_properties(
      {{"session_id", parts::session_id()},
       {"pattern", parts::text(1, 4096, "Literal text (or a regex with regex=true) to read up to, included in data")},
       {"max_bytes", parts::max_bytes(kMaxReadBytes)},
       {"timeout_ms", parts::integer(0, kMaxTimeoutMs, "How long to wait for the pattern", 2000)},
       {"encoding", parts::encoding("How data is returned")}});
  add_tool(
      registry, "serial_read_until", "Read from a serial session until a pattern",
      "Read until a literal or regex pattern appears (matched true), or until timeout or max_bytes (matched "
      "false, with what came)",
      parts::object(properties, {"session_id", "pattern"}), read_output({{"matched", {{"type", "boolean"}}}}),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          auto pattern = pattern_arg(args, "pattern");
          if (!pattern) return reply(std::unexpected(pattern.error()));
          const auto encoding = encoding_arg(args);
          auto request = read_request(args, *session);
          request.until = *pattern;
          session->read(
              std::move(request), reply_with(std::move(reply), encoding, [encoding](const ReadOutcome& o, json& out) {
                out["matched"] = o.end == ReadEnd::Match;
                if (o.match)
                  out["match"] = encode(o.bytes.substr(o.match->begin, o.match->end - o.match->begin), encoding);
              }));
        });
      },
      kReads);
}

}  // namespace

void register_io_tools(ToolRegistry& registry, SerialService& service) {
  add_send(registry, service);
  add_read(registry, service);
  add_read_line(registry, service);
  add_read_until(registry, service);
  register_exec_tools(registry, service);
}

}  // namespace mcpud::serial
