// SPDX-License-Identifier: MIT
#include "support/fuzz_rpc.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mcpud/dialects/mcp_dialect.hpp"
#include "mcpud/dialects/mcpu_dialect.hpp"
#include "mcpud/dialects/mcpu_subscribe.hpp"

namespace mcpud::fuzz {

using nlohmann::json;

void require_json(std::string_view text, std::string_view what) {
  if (json::accept(text)) return;
  std::fprintf(stderr, "%.*s is not JSON: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(text.size()), text.data());
  std::abort();
}

void CheckingClient::push(std::string message) { require_json(message, "a pushed message"); }

namespace {

[[noreturn]] void not_a_response(std::string_view why, std::string_view reply, std::string_view line) {
  std::fprintf(stderr, "a reply %.*s\nreply: %.*s\nline: %.*s\n", static_cast<int>(why.size()), why.data(),
               static_cast<int>(reply.size()), reply.data(), static_cast<int>(line.size()), line.data());
  std::abort();
}

// The ids `request` carries (a batch: each of its requests'), as the parser reads them.
std::vector<json> request_ids(const json& request) {
  std::vector<json> ids;
  const auto add = [&](const json& one) {
    if (one.is_object() && one.contains("id")) ids.push_back(one["id"]);
  };
  if (request.is_array()) {
    for (const auto& one : request) add(one);
  } else {
    add(request);
  }
  return ids;
}

// A request wrapped as {"session_id":..,"type":"mcp","payload":..}, answered in the same wrapping.
bool is_envelope(const json& message) {
  return message.is_object() && !message.contains("jsonrpc") && message.contains("session_id") &&
         message.contains("payload") && message.value("type", json()) == "mcp";
}

// Whether the root object of `line` names session_id, type or payload twice:
// the engine then refuses the envelope unwrapped (which session is a guess).
bool envelope_member_repeated(std::string_view line) {
  std::vector<std::string> keys;
  const auto parsed_for_keys = json::parse(
      line,
      [&](int depth, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::key && depth == 1 && parsed.is_string()) keys.push_back(parsed);
        return true;
      },
      /*allow_exceptions=*/false);
  (void)parsed_for_keys;
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (keys[i] == keys[i - 1] && (keys[i] == "session_id" || keys[i] == "type" || keys[i] == "payload")) return true;
  }
  return false;
}

void require_one_response(const json& response, const std::vector<json>& ids, std::string_view reply,
                          std::string_view line) {
  if (!response.is_object()) not_a_response("is not an object", reply, line);
  const auto jsonrpc = response.find("jsonrpc");
  if (jsonrpc == response.end() || *jsonrpc != "2.0") not_a_response("has no \"jsonrpc\":\"2.0\"", reply, line);
  const auto id = response.find("id");
  if (id == response.end()) not_a_response("has no id", reply, line);
  // An id the engine could not read is null; any other is one a request carried, as it was written.
  if (!id->is_null() &&
      std::none_of(ids.begin(), ids.end(), [&](const json& asked) { return asked.dump() == id->dump(); })) {
    not_a_response("answers an id no request carried", reply, line);
  }
  const auto error = response.find("error");
  if (response.contains("result") == (error != response.end())) {
    not_a_response("does not have exactly one of result and error", reply, line);
  }
  if (error != response.end() &&
      (!error->is_object() || !error->contains("code") || !(*error)["code"].is_number_integer() ||
       !error->contains("message") || !(*error)["message"].is_string())) {
    not_a_response("has an error without an integer code and a string message", reply, line);
  }
}

}  // namespace

void require_response(std::string_view reply, std::string_view line) {
  const auto response = json::parse(reply, nullptr, false);
  if (response.is_discarded()) not_a_response("is not JSON", reply, line);
  // The parser stops at a NUL as at the end of the text; the engine refuses a
  // line holding one (-32700, id null), so no id or envelope of it counts.
  const auto request =
      line.find('\0') == std::string_view::npos ? json::parse(line, nullptr, false) : json(json::value_t::discarded);
  const bool refused_envelope = is_envelope(request) && envelope_member_repeated(line) && response.is_object() &&
                                response.value("id", json(0)).is_null() && response.contains("error");
  const bool wrapped = is_envelope(request) && !refused_envelope;
  if (wrapped && !(response.is_object() && response.contains("payload") && response.value("type", json()) == "mcp" &&
                   response.value("session_id", json()).dump() == request["session_id"].dump())) {
    not_a_response("does not carry the request's envelope back", reply, line);
  }
  const auto& answer = wrapped ? response["payload"] : response;
  const auto ids = request_ids(wrapped ? request["payload"] : request);
  if (!answer.is_array()) return require_one_response(answer, ids, reply, line);
  if (answer.empty()) not_a_response("is an empty batch", reply, line);
  for (const auto& one : answer) require_one_response(one, ids, reply, line);
}

namespace {

// Schemas with every keyword the validator knows: what real tools declare.
const json kSchemas[] = {
    json::parse(R"({"type":"object","properties":{"pin":{"type":"integer","minimum":0,"maximum":40},
      "value":{"type":"boolean"}},"required":["pin"],"additionalProperties":false})"),
    json::parse(R"({"type":"object","properties":{"data":{"type":"string","maxLength":64,"minLength":1,
      "pattern":"^[0-9a-f]*$"},"encoding":{"type":"string","enum":["utf8","hex","base64"],"default":"utf8"}}})"),
    json::parse(R"({"type":"object","properties":{"samples":{"type":"array","items":{"type":"number",
      "exclusiveMinimum":-1e6,"exclusiveMaximum":1e6},"minItems":1,"maxItems":8},
      "mode":{"anyOf":[{"const":"fast"},{"type":"integer"},{"type":"null"}]},
      "nested":{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}}})"),
    json::object(),
};

Tool echo_tool(std::string name, json schema, bool user_only) {
  auto tool = make_tool({.owner = "fuzz",
                         .name = std::move(name),
                         .description = "echoes its validated arguments",
                         .input_schema = std::move(schema),
                         .hints = kDrivesLoads});
  tool.annotations.user_only = user_only;
  tool.coerce_numeric_strings = tool.name == "fuzz_coerce";
  tool.invoke = [](json arguments, ToolReply reply) { reply(std::move(arguments)); };
  return tool;
}

Tool failing_tool() {
  auto tool = make_tool({.owner = "fuzz",
                         .name = "fuzz_fail",
                         .description = "always fails",
                         .input_schema = json::object(),
                         .hints = kReads});
  tool.invoke = [](json, ToolReply reply) {
    reply(std::unexpected(Error::domain(DomainError::PinNotFound, "Pin not found: 7")));
  };
  return tool;
}

dialects::McpServer mcp_server() {
  return {
      [] { return std::string("fuzz-board"); },
      "0.0.0",
      [] { return std::size_t{2000}; },
      [] {
        return json::array({{{"uri", "mcpu://pins/led"}, {"name", "led"}}});
      },
      [](std::string_view uri, ToolReply reply) {
        if (uri == "mcpu://pins/led") return reply(json{{"value", true}});
        reply(std::unexpected(Error::domain(DomainError::ResourceNotFound, "Resource not found: " + std::string(uri))));
      },
      [](std::string_view uri, const Caller&) { return uri == "mcpu://pins/led"; },
      [](std::move_only_function<void()> then) { then(); }};
}

}  // namespace

RpcHarness::RpcHarness() {
  const char* names[] = {"gpio_write", "serial_write", "adc_sample", "fuzz_any"};
  for (std::size_t i = 0; i < std::size(names); ++i) (void)registry.add(echo_tool(names[i], kSchemas[i], i == 0));
  (void)registry.add(echo_tool("fuzz_coerce", kSchemas[0], false));
  (void)registry.add(failing_tool());
  registry.set_user_only_names({"*reboot*"});
  dialects::install_mcpu_dialect(dispatcher, {[] { return std::string("fuzz-board"); }, "0.0.0",
                                              [] {
                                                return json::array({{{"pin", 13}, {"name", "led"}}});
                                              }});
  dialects::install_mcp_dialect(dispatcher, hub, mcp_server());
  dialects::install_mcpu_subscribe(dispatcher, hub,
                                   [](std::string_view uri, const Caller&) { return uri == "mcpu://pins/led"; });
}

void RpcHarness::serve(std::string_view line, rpc::Client& client) {
  engine.handle_line(line, client, [line = std::string(line)](std::string reply) { require_response(reply, line); });
}

}  // namespace mcpud::fuzz
