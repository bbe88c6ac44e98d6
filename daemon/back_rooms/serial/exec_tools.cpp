// SPDX-License-Identifier: MIT
// Tools that do several steps in one call: serial_exec (send a command, read its
// answer) and serial_set_lines (modem lines, reset pulse, break, boot capture).
#include "mcpud/serial/serial_tools.hpp"
#include "tool_arguments.hpp"

namespace mcpud::serial {
namespace {

using nlohmann::json;
namespace parts = schema_parts;

// The read that ends an exec or a capture: until the pattern if one is given,
// else until the line is quiet for quiet_ms, else (`fill`) for the whole timeout.
Result<ReadRequest> capture_request(const json& args, const char* pattern_key, bool fill_without_quiet) {
  ReadRequest request;
  request.max_bytes = args.at("max_bytes").get<std::size_t>();
  request.whole_utf8 = encoding_arg(args) == Encoding::Utf8;
  if (args.contains(pattern_key)) {
    auto pattern = pattern_arg(args, pattern_key);
    if (!pattern) return std::unexpected(pattern.error());
    request.until = *pattern;
  } else if (args.contains("quiet_ms")) {
    request.quiet = Millis(args["quiet_ms"].get<std::uint32_t>());
  } else {
    request.fill = fill_without_quiet;
  }
  return request;
}

void add_exec(ToolRegistry& registry, SerialService& service) {
  json properties = pattern_properties(
      {{"session_id", parts::session_id()},
       {"command", {{"type", "string"}, {"maxLength", 65536}, {"description", "Text to send"}}},
       {"append_newline", parts::boolean("Append the session's newline to the command", true)},
       {"expect", parts::text(1, 4096, "Read until this literal (or regex) appears, e.g. a prompt")},
       {"quiet_ms", parts::integer(1, kMaxTimeoutMs,
                                   "Without expect: the answer ends when the line is quiet this long (default 200)")},
       {"timeout_ms", parts::integer(0, kMaxTimeoutMs, "Longest wait for the answer", 2000)},
       {"max_bytes", parts::max_bytes(kMaxReadBytes)},
       {"flush_input", parts::boolean("Discard unread input before sending, so data is this command's answer "
                                      "(the count is in discarded_bytes)",
                                      true)},
       {"encoding", parts::encoding("How the answer is returned")}});
  properties["quiet_ms"]["default"] = 200;
  add_tool(
      registry, "serial_exec", "Run a command over serial",
      "Send a command, then read its answer until `expect` appears or the line goes quiet, within timeout_ms",
      parts::object(properties, {"session_id", "command"}),
      read_output({{"bytes_written", {{"type", "integer"}}},
                   {"discarded_bytes", {{"type", "integer"}}},
                   {"matched", {{"type", "boolean"}}}}),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          if (args.contains("expect")) args.erase("quiet_ms");  // the schema default must not hide expect
          auto request = capture_request(args, "expect", false);
          if (!request) return reply(std::unexpected(request.error()));
          request->timeout = Millis(args.at("timeout_ms").get<std::uint32_t>());
          auto command = outgoing(args, "command", Encoding::Utf8, *session);
          if (!command) return reply(std::unexpected(command.error()));
          std::size_t discarded = 0;
          if (args.at("flush_input").get<bool>()) {
            auto flushed = session->flush(true, false);
            if (!flushed) return reply(std::unexpected(flushed.error()));
            discarded = *flushed;
          }
          const auto encoding = encoding_arg(args);
          const auto timeout = default_write_timeout(*session, command->size());
          session->write(std::move(*command), timeout,
                         [session, request = std::move(*request), reply = std::move(reply), discarded,
                          encoding](Result<std::size_t> written) mutable {
                           if (!written) return reply(std::unexpected(written.error()));
                           session->read(std::move(request), reply_with(std::move(reply), encoding,
                                                                        [written = written.value_or(0), discarded](
                                                                            const ReadOutcome& o, json& out) {
                                                                          out["matched"] = o.end == ReadEnd::Match;
                                                                          out["bytes_written"] = written;
                                                                          out["discarded_bytes"] = discarded;
                                                                        }));
                         });
        });
      },
      kTalksToADevice);
}

LineActions line_actions(const json& args) {
  LineActions actions;
  if (args.contains("dtr")) actions.dtr = args["dtr"].get<bool>();
  if (args.contains("rts")) actions.rts = args["rts"].get<bool>();
  if (args.contains("pulse")) actions.pulse = args["pulse"].get<std::string>();
  actions.pulse_ms = Millis(args.at("pulse_ms").get<std::uint32_t>());
  if (args.contains("break_ms")) actions.break_ms = Millis(args["break_ms"].get<std::uint32_t>());
  return actions;
}

// After the lines are set: the state of every modem line, when the port has them.
void reply_lines(SerialSession& session, json& out) {
  if (auto lines = session.modem_lines()) out["lines"] = std::move(*lines);
}

void add_set_lines(ToolRegistry& registry, SerialService& service) {
  const json duration = {{"type", "integer"}, {"minimum", 1}, {"maximum", 10000}};
  json properties = pattern_properties(
      {{"session_id", parts::session_id()},
       {"dtr", {{"type", "boolean"}, {"description", "Assert (true) or release (false) DTR"}}},
       {"rts", {{"type", "boolean"}, {"description", "Assert (true) or release (false) RTS"}}},
       {"pulse",
        {{"type", "string"},
         {"enum", {"dtr", "rts"}},
         {"description", "Assert this line for pulse_ms, then release it (a reset on most boards)"}}},
       {"pulse_ms", duration},
       {"break_ms", duration},
       {"flush_input", parts::boolean("Discard unread input first, so a capture holds only what follows", false)},
       {"capture_ms",
        parts::integer(1, kMaxTimeoutMs, "Then read the board's output for this long (e.g. its boot banner)")},
       {"until",
        parts::text(1, 4096, "Then read until this literal (or regex) appears, within capture_ms (default 5000)")},
       {"quiet_ms", parts::integer(1, kMaxTimeoutMs, "End the capture early once the line is quiet this long")},
       {"max_bytes", parts::max_bytes(kMaxReadBytes)},
       {"encoding", parts::encoding("How captured data is returned")}});
  properties["pulse_ms"]["default"] = 100;
  properties["pulse_ms"]["description"] = "Length of the pulse";
  properties["break_ms"]["description"] = "Send a break this long";
  add_tool(
      registry, "serial_set_lines", "Set a serial port's control lines",
      "Set DTR/RTS, pulse one (reset), send a break, and optionally capture what the board prints next, in one "
      "call",
      parts::object(properties, {"session_id"}), output_schema(json::object()),
      [&service](const Caller& caller, json args, ToolReply reply) {
        with_session(service, caller, args, reply, [&](const std::shared_ptr<SerialSession>& session) {
          const bool capture = args.contains("capture_ms") || args.contains("until");
          const auto actions = line_actions(args);
          if (!actions.dtr && !actions.rts && !actions.pulse && !actions.break_ms && !capture) {
            return reply(std::unexpected(
                invalid_argument("params: give at least one of dtr, rts, pulse, break_ms, capture_ms or until")));
          }
          auto request = capture_request(args, "until", true);
          if (!request) return reply(std::unexpected(request.error()));
          request->timeout = Millis(args.value("capture_ms", 5000u));
          if (args.at("flush_input").get<bool>()) {
            if (auto flushed = session->flush(true, false); !flushed) return reply(std::unexpected(flushed.error()));
          }
          const auto encoding = encoding_arg(args);
          session->set_lines(actions, [session, capture, request = std::move(*request), reply = std::move(reply),
                                       encoding](Result<void> done) mutable {
            if (!done) return reply(std::unexpected(done.error()));
            if (!capture) {
              json out = json::object();
              reply_lines(*session, out);
              return reply(std::move(out));
            }
            session->read(std::move(request),
                          [session, reply = std::move(reply), encoding](Result<ReadOutcome> outcome) {
                            if (!outcome) return reply(std::unexpected(outcome.error()));
                            json out = {{"capture", read_reply(*outcome, encoding)}};
                            out["capture"]["matched"] = outcome->end == ReadEnd::Match;
                            reply_lines(*session, out);
                            reply(std::move(out));
                          });
          });
        });
      },
      kTalksToADevice);
}

}  // namespace

void register_exec_tools(ToolRegistry& registry, SerialService& service) {
  add_exec(registry, service);
  add_set_lines(registry, service);
}

}  // namespace mcpud::serial
