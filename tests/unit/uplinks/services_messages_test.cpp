// SPDX-License-Identifier: MIT
// The services protocol's messages: schema reduction, call parsing, results,
// and AUTH content.
#include "services_messages.hpp"

#include <gtest/gtest.h>

namespace mcpud::uplinks {
namespace {

using nlohmann::json;

TEST(ServicesMessages, ReducesASchemaToTheKeywordsTheServerKnows) {
  const auto reduced = reduce_schema(json::parse(R"({
    "type": "object", "additionalProperties": false, "$schema": "x",
    "properties": {
      "pin": {"type": ["integer", "string"], "description": "number or name"},
      "duty": {"type": "integer", "minimum": 0, "maximum": 255, "default": 0, "multipleOf": 1},
      "level": {"type": ["number", "integer", "null"]},
      "mode": {"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}]},
      "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 8, "pattern": "^x"}},
      "when": {"type": "string", "format": "date-time", "enum": ["now", "later"]},
      "nested": {"type": "object", "properties": {"x": {"type": "boolean", "title": "X"}}, "required": ["x"]}
    },
    "required": ["pin"]
  })"));
  EXPECT_EQ(reduced, json::parse(R"({
    "type": "object",
    "properties": {
      "pin": {"type": "string", "description": "number or name"},
      "duty": {"type": "integer", "minimum": 0, "maximum": 255},
      "level": {"type": "number"},
      "mode": {"type": "string"},
      "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 8}},
      "when": {"type": "string", "enum": ["now", "later"]},
      "nested": {"type": "object", "properties": {"x": {"type": "boolean"}}, "required": ["x"]}
    },
    "required": ["pin"]
  })"));
}

TEST(ServicesMessages, RegisterListsOfferedToolsOnly) {
  ToolRegistry registry;
  for (const auto* name : {"gpio_read", "reboot"}) {
    Tool tool;
    tool.name = name;
    tool.description = std::string("does ") + name;
    tool.invoke = [](json, ToolReply reply) { reply(json()); };
    ASSERT_TRUE(registry.add(std::move(tool)));
  }
  const auto message = register_message(registry, [](const Tool& t) { return t.name != "reboot"; });
  EXPECT_EQ(message, json::parse(R"({"type": "register", "data": {"services": {
    "gpio_read": {"description": "does gpio_read", "parameters": {"type": "object", "properties": {}}}}}})"));
}

TEST(ServicesMessages, ParsesAWellFormedCall) {
  const auto m =
      parse_mcp_message(R"({"type":"call","data":{"call_id":"c1","method":"gpio_read","params":{"pin":2}}})");
  ASSERT_TRUE(m.call) << m.problem;
  EXPECT_EQ(m.call->call_id, "c1");
  EXPECT_EQ(m.call->method, "gpio_read");
  EXPECT_EQ(m.call->params, json({{"pin", 2}}));
}

TEST(ServicesMessages, NamesWhatIsWrongWithABadCall) {
  const auto problem = [](const std::string& content) { return parse_mcp_message(content).problem; };
  EXPECT_EQ(problem(R"({"type":"call","data":{"method":"x"}})"), "data.call_id: missing");
  EXPECT_EQ(problem(R"({"type":"call","data":{"call_id":true,"method":"x"}})"),
            "data.call_id: expected a non-empty string, got boolean");
  EXPECT_EQ(problem(R"({"type":"call","data":{"call_id":"c"}})"), "data.method: missing");
  EXPECT_EQ(problem(R"({"type":"call","data":{"call_id":"c","method":7}})"),
            "data.method: expected a service name, got number");
  EXPECT_EQ(problem(R"({"type":"call","data":{"call_id":"c","method":"x","params":"{"}})"),
            "data.params: not valid JSON text");
  EXPECT_EQ(problem(R"({"type":"call","data":{"call_id":"c","method":"x","params":[1]}})"),
            "data.params: expected object, got array");
  EXPECT_EQ(problem(R"({"type":"call","data":"x"})"), "data: expected an object with call_id, method and params");
  EXPECT_EQ(problem("[[[["), "message is not a JSON object");
  EXPECT_EQ(problem(std::string(100, '[')), "message nested deeper than 64 levels");
  EXPECT_EQ(parse_mcp_message(R"({"type":"call","data":{"call_id":"c","method":"x"}})").call_id, "c");
  EXPECT_EQ(parse_mcp_message(R"({"type":"register_ok"})").type, "register_ok");
}

TEST(ServicesMessages, ResultsCarryDataOrANamedError) {
  EXPECT_EQ(result_message("c1", json{{"v", 1}}),
            json::parse(R"({"type":"result","data":{"call_id":"c1","result":{"success":true,"data":{"v":1}}}})"));
  const auto failed = result_message(7, std::unexpected(Error::domain(DomainError::PinNotFound, "Pin not found: 99")));
  EXPECT_EQ(failed["data"]["call_id"], 7);
  EXPECT_EQ(failed["data"]["result"], json::parse(R"({"success":false,"error":"PIN_NOT_FOUND: Pin not found: 99"})"));
}

TEST(ServicesMessages, AuthContentLeavesOutEmptyOptions) {
  EXPECT_EQ(auth_content("jwt", "v1", "en", "pcm"), "jwt##voiceid:v1##lang:en##format:pcm");
  EXPECT_EQ(auth_content("jwt", "", "", "pcm"), "jwt##format:pcm");
}

}  // namespace
}  // namespace mcpud::uplinks
