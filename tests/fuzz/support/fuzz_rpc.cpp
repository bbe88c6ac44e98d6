// SPDX-License-Identifier: MIT
#include "support/fuzz_rpc.hpp"

#include <cstdio>
#include <cstdlib>

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
  auto tool = make_tool("fuzz", std::move(name), "echoes its validated arguments", std::move(schema), json(), false);
  tool.annotations.user_only = user_only;
  tool.coerce_numeric_strings = tool.name == "fuzz_coerce";
  tool.invoke = [](json arguments, ToolReply reply) { reply(std::move(arguments)); };
  return tool;
}

Tool failing_tool() {
  auto tool = make_tool("fuzz", "fuzz_fail", "always fails", json::object(), json(), true);
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
      [](std::function<void()> then) { then(); }};
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
  dialects::install_mcpu_subscribe(dispatcher, hub);
}

void RpcHarness::serve(std::string_view line, rpc::Client& client) {
  engine.handle_line(line, client, [](std::string reply) { require_json(reply, "a reply"); });
}

}  // namespace mcpud::fuzz
