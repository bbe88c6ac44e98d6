// SPDX-License-Identifier: MIT
// Schema fragments, argument readers and read replies of the serial tools.
#include "tool_arguments.hpp"

namespace mcpud::serial {

using nlohmann::json;

namespace schema_parts {

json object(json properties, json required) {
  return {{"type", "object"},
          {"properties", std::move(properties)},
          {"required", std::move(required)},
          {"additionalProperties", false}};
}

json session_id() {
  return {{"type", "string"}, {"minLength", 1}, {"maxLength", 64}, {"description", "Session id from serial_connect"}};
}

json encoding(const char* what) {
  return {{"type", "string"}, {"enum", {"utf8", "hex", "base64"}}, {"default", "utf8"}, {"description", what}};
}

json timeout_ms(const char* what) { return integer(0, kMaxTimeoutMs, what); }

json max_bytes(std::size_t default_value) {
  return {{"type", "integer"},
          {"minimum", 1},
          {"maximum", kMaxReadBytes},
          {"default", default_value},
          {"description", "Most bytes to return (1-65536)"}};
}

json boolean(const char* what, bool default_value) {
  return {{"type", "boolean"}, {"default", default_value}, {"description", what}};
}

json text(std::size_t min_length, std::size_t max_length, const char* what) {
  return {{"type", "string"}, {"minLength", min_length}, {"maxLength", max_length}, {"description", what}};
}

json integer(std::int64_t min, std::int64_t max, const char* what, std::optional<std::int64_t> default_value) {
  json schema = {{"type", "integer"}, {"minimum", min}, {"maximum", max}, {"description", what}};
  if (default_value) schema["default"] = *default_value;
  return schema;
}

}  // namespace schema_parts

void add_tool(ToolRegistry& registry, std::string name, std::string title, std::string description, json schema,
              json output, CallerInvoke invoke, ToolAnnotations hints) {
  auto tool = make_tool({.owner = kSerialToolsOwner,
                         .name = std::move(name),
                         .title = std::move(title),
                         .description = std::move(description),
                         .input_schema = std::move(schema),
                         .output_schema = std::move(output),
                         .hints = hints});
  tool.coerce_numeric_strings = true;  // clients send "9600" for 9600
  tool.invoke = std::move(invoke);
  // Names are fixed and registered once; a clash is a programming error.
  if (auto added = registry.add(std::move(tool)); !added) throw std::logic_error(added.error().message);
}

Encoding encoding_arg(const json& args, const char* key) {
  const auto it = args.find(key);
  if (it == args.end()) return Encoding::Utf8;
  return parse_encoding(it->get_ref<const std::string&>()).value_or(Encoding::Utf8);  // the schema's enum checked it
}

Millis timeout_arg(const json& args, const SerialSession& session) {
  const auto it = args.find("timeout_ms");
  return it == args.end() ? session.options().default_timeout : Millis(it->get<std::uint32_t>());
}

ReadRequest read_request(const json& args, const SerialSession& session) {
  ReadRequest request;
  request.max_bytes = args.at("max_bytes").get<std::size_t>();
  request.timeout = timeout_arg(args, session);
  request.whole_utf8 = encoding_arg(args) == Encoding::Utf8;
  return request;
}

Result<std::shared_ptr<const Pattern>> pattern_arg(const json& args, const char* key) {
  const auto& text = args.at(key).get_ref<const std::string&>();
  const std::string field = std::string("params.") + key;
  if (args.value("regex", false)) {
    auto pattern = Pattern::regex(text);
    if (!pattern) return std::unexpected(invalid_argument(field + ": " + pattern.error()));
    return *pattern;
  }
  auto bytes = decode(text, encoding_arg(args, "pattern_encoding"));
  if (!bytes) return std::unexpected(invalid_argument(field + ": " + bytes.error()));
  auto pattern = Pattern::literal(std::move(*bytes));
  if (!pattern) return std::unexpected(invalid_argument(field + ": " + pattern.error()));
  return *pattern;
}

json output_schema(json properties, json required) {
  return {{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

json read_output(json more) {
  const json integer = {{"type", "integer"}};
  const json boolean = {{"type", "boolean"}};
  json properties = {{"data", {{"type", "string"}}},
                     {"bytes_read", integer},
                     {"timed_out", boolean},
                     {"ended", {{"type", "string"}}},
                     {"encoding", {{"type", "string"}}},
                     {"invalid_utf8", boolean},
                     {"bytes_lost", integer},
                     {"device_disconnected", boolean}};
  properties.update(more);
  return output_schema(std::move(properties), {"data", "bytes_read", "timed_out"});
}

json read_reply(const ReadOutcome& outcome, Encoding encoding) {
  bool lossy = false;
  json reply = json::object();
  reply["data"] = encode(outcome.bytes, encoding, &lossy);
  reply["bytes_read"] = outcome.bytes.size();
  reply["timed_out"] = outcome.end == ReadEnd::Timeout;
  reply["ended"] = read_end_name(outcome.end);
  reply["encoding"] = encoding_name(encoding);
  if (encoding == Encoding::Utf8) reply["invalid_utf8"] = lossy;
  reply["bytes_lost"] = outcome.lost;
  if (outcome.device_gone) reply["device_disconnected"] = true;
  return reply;
}

// Generous: the time the bytes take on the wire twice over, plus a second.
Millis default_write_timeout(const SerialSession& session, std::size_t bytes) {
  const std::uint64_t bits = static_cast<std::uint64_t>(bytes) * 12;
  return Millis(1000 + 2 * bits * 1000 / std::max<std::uint32_t>(session.options().settings.baud, 1));
}

// The bytes serial_send and serial_exec write: data decoded, newline appended.
Result<std::string> outgoing(const json& args, const char* key, Encoding encoding, const SerialSession& session) {
  auto bytes = decode(args.at(key).get_ref<const std::string&>(), encoding);
  if (!bytes) return std::unexpected(invalid_argument(std::string("params.") + key + ": " + bytes.error()));
  // A newline after hex or base64 data would surprise: there it must be asked for.
  const bool append = args.contains("append_newline") ? args["append_newline"].get<bool>() : encoding == Encoding::Utf8;
  if (append) *bytes += session.options().newline;
  return std::move(*bytes);
}

json pattern_properties(json properties) {
  properties["regex"] = schema_parts::boolean("Treat the pattern as a regular expression (PCRE, on raw bytes)", false);
  properties["pattern_encoding"] = schema_parts::encoding("How a literal pattern is written: utf8, hex or base64");
  return properties;
}

// Replies with read_reply(), after `shape` adjusts it.
ReadDone reply_with(ToolReply reply, Encoding encoding, std::function<void(const ReadOutcome&, json&)> shape) {
  return [reply = std::move(reply), encoding, shape = std::move(shape)](Result<ReadOutcome> outcome) {
    if (!outcome) return reply(std::unexpected(outcome.error()));
    json out = read_reply(*outcome, encoding);
    if (shape) shape(*outcome, out);
    reply(std::move(out));
  };
}

}  // namespace mcpud::serial
