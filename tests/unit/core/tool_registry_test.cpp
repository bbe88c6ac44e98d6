// SPDX-License-Identifier: MIT
// Unit tests of ToolRegistry: adding, removing by owner, lookup, validated calls and change notifications.
#include "mcpud/core/tool_registry.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mcpud/core/call_observer.hpp"
#include "mcpud/core/json_rpc.hpp"

namespace mcpud {
namespace {

using nlohmann::json;

// A tool whose invoke records its arguments and echoes them back.
Tool echo_tool(std::string name, std::string owner = "test", json schema = json::object(),
               std::vector<json>* seen = nullptr) {
  Tool tool;
  tool.name = std::move(name);
  tool.description = "echoes its arguments";
  tool.input_schema = std::move(schema);
  tool.owner = std::move(owner);
  tool.invoke = [seen](json args, ToolReply reply) {
    if (seen) seen->push_back(args);
    reply(std::move(args));
  };
  return tool;
}

// The result of a call that replies before returning.
ToolResult call(const ToolRegistry& registry, std::string_view name, json args, std::string_view root = "params",
                const Caller& caller = Caller{}) {
  std::optional<ToolResult> result;
  int replies = 0;
  registry.call(
      caller, name, std::move(args),
      [&](ToolResult r) {
        ++replies;
        result = std::move(r);
      },
      root);
  EXPECT_EQ(replies, 1) << name;
  return result.value_or(std::unexpected(Error::internal("no reply")));
}

const json kPinSchema = json::parse(R"({
  "type": "object",
  "properties": {
    "pin": {"type": "integer", "minimum": 0},
    "value": {"type": "boolean"},
    "mode": {"type": "string", "enum": ["a", "b"], "default": "a"}
  },
  "required": ["pin"],
  "additionalProperties": false
})");

TEST(ToolRegistry, Add_MakesTheToolFindableByName) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("alpha")));
  const auto tool = registry.find("alpha");
  ASSERT_NE(tool, nullptr);
  EXPECT_EQ(tool->name, "alpha");
  EXPECT_EQ(tool->owner, "test");
  EXPECT_EQ(registry.size(), 1u);
}

TEST(ToolRegistry, Find_UnknownNameIsNull) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("alpha")));
  EXPECT_EQ(registry.find("beta"), nullptr);
  EXPECT_EQ(registry.find(""), nullptr);
  EXPECT_EQ(registry.find("ALPHA"), nullptr);
}

TEST(ToolRegistry, Add_KeepsRegistrationOrder) {
  ToolRegistry registry;
  for (const char* name : {"zeta", "alpha", "mid"}) ASSERT_TRUE(registry.add(echo_tool(name)));
  std::vector<std::string> names;
  for (const auto& tool : registry.tools()) names.push_back(tool->name);
  EXPECT_EQ(names, (std::vector<std::string>{"zeta", "alpha", "mid"}));
}

TEST(ToolRegistry, Add_RejectsADuplicateNameAndKeepsTheFirst) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("alpha", "first")));
  const auto again = registry.add(echo_tool("alpha", "second"));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, rpc_code::kInvalidParams);
  EXPECT_NE(again.error().message.find("alpha"), std::string::npos);
  EXPECT_EQ(registry.size(), 1u);
  EXPECT_EQ(registry.find("alpha")->owner, "first");
}

TEST(ToolRegistry, Add_RejectsAnEmptyName) {
  ToolRegistry registry;
  const auto added = registry.add(echo_tool(""));
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, rpc_code::kInvalidParams);
  EXPECT_EQ(registry.size(), 0u);
}

// A tool runs one way or the other, by the type of its invoke; with neither
// it is refused, not registered to fail when called.
TEST(ToolRegistry, Add_RejectsAToolWithNothingToRunAndRunsEitherKind) {
  ToolRegistry registry;
  Tool idle = echo_tool("idle");
  idle.invoke = ToolInvoke();
  const auto added = registry.add(std::move(idle));
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().message, "tool 'idle' has nothing to run");

  Tool whose = echo_tool("whose");
  whose.invoke = [](const Caller& caller, json&&, ToolReply&& reply) { reply(json(caller.peer)); };
  ASSERT_TRUE(registry.add(std::move(whose)));
  Caller caller;
  caller.peer = "127.0.0.1:4000";
  EXPECT_EQ(call(registry, "whose", json::object(), "params", caller).value(), "127.0.0.1:4000");
  ASSERT_TRUE(registry.add(echo_tool("plain")));
  EXPECT_EQ(call(registry, "plain", json{{"a", 1}}).value(), (json{{"a", 1}}));
}

TEST(ToolRegistry, RemoveOwner_RemovesOnlyThatOwnersTools) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("a1", "a")));
  ASSERT_TRUE(registry.add(echo_tool("b1", "b")));
  ASSERT_TRUE(registry.add(echo_tool("a2", "a")));
  EXPECT_EQ(registry.remove_owner("a"), 2u);
  EXPECT_EQ(registry.size(), 1u);
  EXPECT_EQ(registry.find("a1"), nullptr);
  EXPECT_EQ(registry.find("a2"), nullptr);
  ASSERT_NE(registry.find("b1"), nullptr);
  EXPECT_EQ(registry.tools().front()->name, "b1");
}

TEST(ToolRegistry, RemoveOwner_FreesTheNamesForReuse) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("x", "old")));
  EXPECT_EQ(registry.remove_owner("old"), 1u);
  ASSERT_TRUE(registry.add(echo_tool("x", "new")));
  EXPECT_EQ(registry.find("x")->owner, "new");
}

TEST(ToolRegistry, RemoveOwner_OfUnknownOwnerRemovesNothing) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("x", "a")));
  EXPECT_EQ(registry.remove_owner("nobody"), 0u);
  EXPECT_EQ(registry.size(), 1u);
}

TEST(ToolRegistry, RemoveOwner_KeepsAToolFoundEarlierAlive) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("x", "a")));
  const auto held = registry.find("x");
  registry.remove_owner("a");
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->name, "x");
  EXPECT_TRUE(held->runnable());
}

TEST(ToolRegistry, Call_UnknownToolIsMethodNotFound) {
  ToolRegistry registry;
  const auto result = call(registry, "nope", json::object());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, rpc_code::kMethodNotFound);
  EXPECT_NE(result.error().message.find("nope"), std::string::npos);
  EXPECT_TRUE(result.error().name.empty());
}

TEST(ToolRegistry, Call_PassesValidArgumentsWithDefaultsFilled) {
  ToolRegistry registry;
  std::vector<json> seen;
  ASSERT_TRUE(registry.add(echo_tool("t", "test", kPinSchema, &seen)));
  const auto result = call(registry, "t", {{"pin", 3}});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(*result, json::parse(R"({"pin":3,"mode":"a"})"));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], json::parse(R"({"pin":3,"mode":"a"})"));
}

TEST(ToolRegistry, Call_NullArgumentsCountAsAnEmptyObject) {
  ToolRegistry registry;
  std::vector<json> seen;
  ASSERT_TRUE(registry.add(echo_tool("t", "test", json::parse(R"({"type":"object"})"), &seen)));
  EXPECT_TRUE(call(registry, "t", nullptr));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], json::object());
}

struct InvalidArgsCase {
  const char* name;
  json args;
  std::string message;
};

TEST(ToolRegistry, Call_InvalidArgumentsAreRefusedBeforeInvokeAsTable) {
  const std::vector<InvalidArgsCase> cases = {
      {"missing required", json::object(), "params.pin: required property is missing"},
      {"wrong type", {{"pin", "3"}}, "params.pin: expected integer, got string"},
      {"below minimum", {{"pin", -1}}, "params.pin: -1 is below the minimum 0"},
      {"integer for boolean", {{"pin", 1}, {"value", 1}}, "params.value: expected boolean, got integer"},
      {"not in enum", {{"pin", 1}, {"mode", "c"}}, "params.mode: must be one of \"a\", \"b\", got \"c\""},
      {"unknown property", {{"pin", 1}, {"vale", true}}, "params.vale: unknown property"},
      {"not an object", json::array({1}), "params: expected object, got array"},
  };
  for (const auto& c : cases) {
    ToolRegistry registry;
    std::vector<json> seen;
    ASSERT_TRUE(registry.add(echo_tool("t", "test", kPinSchema, &seen)));
    const auto result = call(registry, "t", c.args);
    ASSERT_FALSE(result) << c.name;
    EXPECT_EQ(result.error().code, rpc_code::kInvalidParams) << c.name;
    EXPECT_EQ(result.error().message.substr(0, c.message.size()), c.message)
        << c.name << ": " << result.error().message;
    EXPECT_TRUE(seen.empty()) << c.name;
  }
}

TEST(ToolRegistry, Call_NamesFieldsUnderTheGivenRoot) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(echo_tool("t", "test", kPinSchema)));
  const auto result = call(registry, "t", {{"pin", "x"}}, "arguments");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "arguments.pin: expected integer, got string");
}

TEST(ToolRegistry, Call_ToolErrorsReachTheReplyUnchanged) {
  ToolRegistry registry;
  Tool tool = echo_tool("t");
  tool.invoke = [](json, ToolReply reply) { reply(std::unexpected(Error::domain(DomainError::Busy, "busy now"))); };
  ASSERT_TRUE(registry.add(std::move(tool)));
  const auto result = call(registry, "t", json::object());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().name, "BUSY");
  EXPECT_EQ(result.error().message, "busy now");
}

TEST(ToolRegistry, Call_AsyncToolRepliesAfterCallReturns) {
  ToolRegistry registry;
  ToolReply stored;
  Tool tool = echo_tool("slow");
  tool.invoke = [&](json, ToolReply reply) { stored = std::move(reply); };
  ASSERT_TRUE(registry.add(std::move(tool)));
  std::optional<ToolResult> result;
  registry.call(Caller{}, "slow", json::object(), [&](ToolResult r) { result = std::move(r); });
  EXPECT_FALSE(result.has_value());
  ASSERT_TRUE(static_cast<bool>(stored));
  stored(json(42));
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(**result, 42);
}

// A tool that answers {"pin": N} as a value, or as text to callers that take text.
Tool text_tool() {
  Tool tool = echo_tool("t", "test", kPinSchema);
  tool.invoke_as_text = [](const Caller&, const json& args) -> ToolResult {
    if (args.at("pin") == 13) return std::unexpected(Error::domain(DomainError::Busy, "pin 13 is busy"));
    return rpc::serialized_result(R"({"pin":)" + args.at("pin").dump() + "}");
  };
  return tool;
}

// Records what an observer of calls saw.
struct SeenCalls : CallObserver {
  std::vector<json> outcomes;
  bool wants_calls() const override { return true; }
  void on_call(const CallRecord& call) override { outcomes.push_back(call.outcome ? *call.outcome : json()); }
};

TEST(ToolRegistry, Call_AnswersAsTextOnlyCallersThatTakeText) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(text_tool()));
  const auto as_value = call(registry, "t", {{"pin", 3}});
  ASSERT_TRUE(as_value) << as_value.error().message;
  EXPECT_EQ(*as_value, json::parse(R"({"pin":3,"mode":"a"})"));  // through invoke

  Caller engine;
  engine.takes_text_results = true;
  const auto as_text = call(registry, "t", {{"pin", 3}}, "params", engine);
  ASSERT_TRUE(as_text) << as_text.error().message;
  ASSERT_TRUE(rpc::is_serialized_result(*as_text));
  EXPECT_EQ(rpc::result_value(*as_text), json::parse(R"({"pin":3})"));

  const auto refused = call(registry, "t", {{"pin", 13}}, "params", engine);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "pin 13 is busy");
  const auto invalid = call(registry, "t", {{"pin", -1}}, "params", engine);  // validated first, as for invoke
  ASSERT_FALSE(invalid);
  EXPECT_EQ(invalid.error().code, rpc_code::kInvalidParams);
}

TEST(ToolRegistry, Call_AToolThatThrowsWhileAnsweringAsTextGetsAnInternalError) {
  ToolRegistry registry;
  Tool tool = text_tool();
  tool.invoke_as_text = [](const Caller&, const json&) -> ToolResult { throw std::runtime_error("lost the pin"); };
  ASSERT_TRUE(registry.add(std::move(tool)));
  Caller engine;
  engine.takes_text_results = true;
  const auto result = call(registry, "t", {{"pin", 3}}, "params", engine);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, rpc_code::kInternalError);
  EXPECT_EQ(result.error().message, "Internal error: lost the pin");
}

TEST(ToolRegistry, Call_AnObservedCallIsAnsweredAsAValue) {
  ToolRegistry registry;
  ASSERT_TRUE(registry.add(text_tool()));
  auto seen = std::make_shared<SeenCalls>();
  registry.observe_calls(seen);
  Caller engine;
  engine.takes_text_results = true;
  const auto result = call(registry, "t", {{"pin", 4}}, "params", engine);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_FALSE(rpc::is_serialized_result(*result));
  ASSERT_EQ(seen->outcomes.size(), 1u);
  EXPECT_EQ(seen->outcomes[0], json::parse(R"({"pin":4,"mode":"a"})"));
}

TEST(ToolRegistry, ChangeListeners_RunOnEveryAddAndRemove) {
  ToolRegistry registry;
  int a = 0;
  int b = 0;
  registry.on_change([&] { ++a; });
  registry.on_change([&] { ++b; });
  ASSERT_TRUE(registry.add(echo_tool("x", "o")));
  ASSERT_TRUE(registry.add(echo_tool("y", "o")));
  EXPECT_EQ(a, 2);
  registry.remove_owner("o");
  EXPECT_EQ(a, 3);
  EXPECT_EQ(b, 3);
}

TEST(ToolRegistry, ChangeListeners_DoNotRunWhenNothingChanged) {
  ToolRegistry registry;
  int changes = 0;
  ASSERT_TRUE(registry.add(echo_tool("x", "o")));
  registry.on_change([&] { ++changes; });
  EXPECT_FALSE(registry.add(echo_tool("x", "o")));
  EXPECT_FALSE(registry.add(echo_tool("")));
  EXPECT_EQ(registry.remove_owner("nobody"), 0u);
  EXPECT_EQ(changes, 0);
}

TEST(ToolRegistry, Batch_CoalescesChangesIntoOneNotification) {
  ToolRegistry registry;
  int changes = 0;
  std::size_t size_seen = 0;
  registry.on_change([&] {
    ++changes;
    size_seen = registry.size();
  });
  {
    ToolRegistry::Batch batch(registry);
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(registry.add(echo_tool("t" + std::to_string(i))));
    registry.remove_owner("test");
    ASSERT_TRUE(registry.add(echo_tool("last")));
    EXPECT_EQ(changes, 0);
  }
  EXPECT_EQ(changes, 1);
  EXPECT_EQ(size_seen, 1u);
}

TEST(ToolRegistry, Batch_NestedBatchesNotifyOnceAtTheOutermostEnd) {
  ToolRegistry registry;
  int changes = 0;
  registry.on_change([&] { ++changes; });
  {
    ToolRegistry::Batch outer(registry);
    ASSERT_TRUE(registry.add(echo_tool("a")));
    {
      ToolRegistry::Batch inner(registry);
      ASSERT_TRUE(registry.add(echo_tool("b")));
    }
    EXPECT_EQ(changes, 0);
  }
  EXPECT_EQ(changes, 1);
}

TEST(ToolRegistry, Batch_WithoutChangesDoesNotNotify) {
  ToolRegistry registry;
  int changes = 0;
  registry.on_change([&] { ++changes; });
  { ToolRegistry::Batch batch(registry); }
  EXPECT_EQ(changes, 0);
  // And a later batch is not affected by the earlier one.
  {
    ToolRegistry::Batch batch(registry);
    ASSERT_TRUE(registry.add(echo_tool("a")));
  }
  EXPECT_EQ(changes, 1);
  ASSERT_TRUE(registry.add(echo_tool("b")));
  EXPECT_EQ(changes, 2);
}

}  // namespace
}  // namespace mcpud
