// SPDX-License-Identifier: MIT
// The services protocol's messages: schema reduction, call parsing, results,
// AUTH content, and the [uplink.services] configuration.
#include "uplinks/services_messages.hpp"

#include <gtest/gtest.h>

#include "config/config.hpp"

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

TEST(ServicesUplinkConfig, ReadsTheTableWithDefaults) {
  auto config = config::parse("[uplink.services]\nserver = \"ai.example.com:8443\"\ntoken = \"t\"\n", "test.toml");
  ASSERT_TRUE(config) << config.error();
  const auto& s = config->uplink.services;
  EXPECT_TRUE(s.enabled());
  EXPECT_EQ(s.host, "ai.example.com");
  EXPECT_EQ(s.port, 8443);
  EXPECT_EQ(s.ping_interval_s, 120u);
  EXPECT_EQ(s.task_id, "mcp00001");
  EXPECT_EQ(s.max_frame_bytes, 1024u * 1024u);
  EXPECT_FALSE(config::parse("", "test.toml")->uplink.services.enabled());
  // --check-config prints the resolved document: the token stays out of it.
  EXPECT_EQ(config->resolved["uplink"]["services"]["token"], "(hidden)");
  EXPECT_EQ(s.token, "t");
}

TEST(ServicesUplinkConfig, ErrorsNameTheKey) {
  const auto error = [](const std::string& toml) {
    auto e = config::parse(toml, "test.toml").error();
    return e.starts_with("test.toml: ") ? e.substr(11) : e;
  };
  EXPECT_EQ(error("[uplink.services]\nserver = \"host\"\n"), "uplink.services.server: expected host:port, e.g. ai.example.com:8085, got 'host'");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\n"),
            "uplink.services.token: missing; give token or token_file (AUTH needs one)");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:99999\"\n"),
            "uplink.services.server: expected host:port, e.g. ai.example.com:8085, got 'h:99999'");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\ntoken = \"a\"\ntoken_file = \"/x\"\n"),
            "uplink.services.token_file: give token or token_file, not both");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\ntoken_file = \"/nonexistent/token\"\n"),
            "uplink.services.token_file: cannot read '/nonexistent/token': No such file or directory");
  EXPECT_EQ(error("[uplink.services]\nserver = \"h:1\"\ntoken = \"a\"\ntask_id = \"00000000\"\n"),
            "uplink.services.task_id: 00000000 is kept for system messages");
  EXPECT_TRUE(error("[uplink.services]\nserver = \"h:1\"\nping_interval_s = 400\n")
                  .starts_with("uplink.services.ping_interval_s"));
}

}  // namespace
}  // namespace mcpud::uplinks
