// SPDX-License-Identifier: MIT
// Unit tests of the MCP/U dialect (list_tools) and of method routing through the rpc::Dispatcher.
#include "mcpud/dialects/mcpu_dialect.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "mcpud/core/dispatcher.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "recording_client.hpp"

namespace mcpud::dialects {
namespace {

using nlohmann::json;

Tool make_mcpu_tool(std::string name, json schema = json::object(),
                    std::optional<std::uint32_t> polling = std::nullopt) {
  Tool tool;
  tool.name = std::move(name);
  tool.description = "the " + tool.name + " tool";
  tool.input_schema = std::move(schema);
  tool.annotations.polling_interval_ms = polling;
  tool.owner = "test";
  const auto reply_name = tool.name;
  tool.invoke = [reply_name](json args, ToolReply reply) { reply(json{{"tool", reply_name}, {"args", args}}); };
  return tool;
}

class McpuDialect : public ::testing::Test {
 protected:
  DeviceIdentity identity() {
    return DeviceIdentity{[this] { return device; }, "1.2.3", [this] { return pins; }};
  }

  ToolResult handle(std::string_view method, json params = json::object()) {
    std::optional<ToolResult> result;
    dispatcher.handle(client, method, std::move(params), [&](ToolResult r) { result = std::move(r); });
    EXPECT_TRUE(result.has_value()) << method;
    if (result && *result) return rpc::result_value(**result);  // the value as a client reads it
    return result.value_or(std::unexpected(Error::internal("no reply")));
  }

  std::string device = "board-1";
  json pins = json::parse(R"([{"pin":2,"name":"led","type":"digital_output","description":""}])");
  ToolRegistry registry;
  rpc::Dispatcher dispatcher{registry};
  test_support::RecordingClient client;
};

TEST_F(McpuDialect, ListToolsReply_HasDeviceVersionToolsAndPins) {
  ASSERT_TRUE(registry.add(
      make_mcpu_tool("gpio_read", json::parse(R"({"type":"object","properties":{"pin":{"type":"integer"}}})"))));
  const auto reply = list_tools_reply(registry, identity());
  EXPECT_EQ(reply, json::parse(R"({
    "device": "board-1",
    "version": "1.2.3",
    "tools": [{"name": "gpio_read", "description": "the gpio_read tool",
               "inputSchema": {"type":"object","properties":{"pin":{"type":"integer"}}}}],
    "pins": [{"pin":2,"name":"led","type":"digital_output","description":""}]
  })"));
}

TEST_F(McpuDialect, ListToolsReply_ListsToolsInRegistrationOrder) {
  for (const char* name : {"zeta", "alpha", "get_info"}) ASSERT_TRUE(registry.add(make_mcpu_tool(name)));
  std::vector<std::string> names;
  const auto reply = list_tools_reply(registry, identity());
  for (const auto& tool : reply.at("tools")) names.push_back(tool.at("name"));
  EXPECT_EQ(names, (std::vector<std::string>{"zeta", "alpha", "get_info"}));
}

TEST_F(McpuDialect, ListToolsReply_AlwaysHasAnInputSchema) {
  ASSERT_TRUE(registry.add(make_mcpu_tool("bare")));
  const auto tool = list_tools_reply(registry, identity()).at("tools").at(0);
  ASSERT_TRUE(tool.contains("inputSchema"));
  EXPECT_EQ(tool.at("inputSchema"), json::object());
}

TEST_F(McpuDialect, ListToolsReply_AddsPollingOnlyForToolsThatDeclareIt) {
  ASSERT_TRUE(registry.add(make_mcpu_tool("plain")));
  ASSERT_TRUE(registry.add(make_mcpu_tool("polled", json::object(), 250)));
  const auto tools = list_tools_reply(registry, identity()).at("tools");
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_FALSE(tools[0].contains("polling"));
  EXPECT_EQ(tools[1].at("polling"), json::parse(R"({"enabled":true,"interval_ms":250})"));
}

TEST_F(McpuDialect, ListToolsReply_OfAnEmptyRegistryHasAnEmptyToolArray) {
  pins = json::array();
  const auto reply = list_tools_reply(registry, identity());
  EXPECT_EQ(reply.at("tools"), json::array());
  EXPECT_EQ(reply.at("pins"), json::array());
}

TEST_F(McpuDialect, ListToolsReply_ReadsTheCurrentDeviceNameAndPins) {
  const auto id = identity();
  EXPECT_EQ(list_tools_reply(registry, id).at("device"), "board-1");
  device = "renamed";
  pins = json::array();
  const auto reply = list_tools_reply(registry, id);
  EXPECT_EQ(reply.at("device"), "renamed");
  EXPECT_EQ(reply.at("pins"), json::array());
}

TEST_F(McpuDialect, ListToolsMethod_IsInstalledOnTheDispatcher) {
  install_mcpu_dialect(dispatcher, identity());
  ASSERT_TRUE(registry.add(make_mcpu_tool("gpio_read")));
  const auto result = handle("list_tools");
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(*result, list_tools_reply(registry, identity()));
}

TEST_F(McpuDialect, ListToolsMethod_SendsItsCachedListingSerializedAndRenewsItWhenToolsChange) {
  install_mcpu_dialect(dispatcher, identity());
  ASSERT_TRUE(registry.add(make_mcpu_tool("gpio_read")));
  std::optional<ToolResult> raw;
  dispatcher.handle(client, "list_tools", json::object(), [&](ToolResult r) { raw = std::move(r); });
  ASSERT_TRUE(raw && *raw);
  EXPECT_TRUE(rpc::is_serialized_result(**raw));
  EXPECT_EQ(rpc::response(1, *raw), rpc::response(1, list_tools_reply(registry, identity())))
      << "the same text as the value serialized";
  ASSERT_TRUE(registry.add(make_mcpu_tool("gpio_write")));
  EXPECT_EQ(handle("list_tools")->at("tools").size(), 2u);
  registry.remove_owner("test");
  EXPECT_EQ(*handle("list_tools"), list_tools_reply(registry, identity()));
}

TEST_F(McpuDialect, ListToolsMethod_SeesToolsAddedAfterInstall) {
  install_mcpu_dialect(dispatcher, identity());
  EXPECT_EQ(handle("list_tools")->at("tools").size(), 0u);
  ASSERT_TRUE(registry.add(make_mcpu_tool("late", json::object(), 1000)));
  const auto tools = handle("list_tools")->at("tools");
  ASSERT_EQ(tools.size(), 1u);
  EXPECT_EQ(tools[0].at("polling").at("interval_ms"), 1000);
}

TEST_F(McpuDialect, Dispatcher_RoutesOtherMethodsToRegistryTools) {
  install_mcpu_dialect(dispatcher, identity());
  ASSERT_TRUE(
      registry.add(make_mcpu_tool("gpio_read", json::parse(R"({"type":"object","properties":{"pin":{"type":"integer"}},
      "required":["pin"]})"))));
  const auto result = handle("gpio_read", {{"pin", 4}});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(*result, json::parse(R"({"tool":"gpio_read","args":{"pin":4}})"));
  const auto invalid = handle("gpio_read", json::object());
  ASSERT_FALSE(invalid);
  EXPECT_EQ(invalid.error().code, rpc_code::kInvalidParams);
  EXPECT_EQ(invalid.error().message, "params.pin: required property is missing");
}

TEST_F(McpuDialect, Dispatcher_UnknownMethodIsMethodNotFound) {
  install_mcpu_dialect(dispatcher, identity());
  const auto result = handle("no_such_method");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, rpc_code::kMethodNotFound);
}

TEST_F(McpuDialect, Dispatcher_DialectMethodsTakePrecedenceOverTools) {
  ASSERT_TRUE(registry.add(make_mcpu_tool("list_tools")));
  install_mcpu_dialect(dispatcher, identity());
  const auto result = handle("list_tools");
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->contains("tools"));
  EXPECT_FALSE(result->contains("tool"));
}

TEST_F(McpuDialect, OverJsonRpc_ListToolsAnswersWithTheReplyShape) {
  install_mcpu_dialect(dispatcher, identity());
  ASSERT_TRUE(registry.add(make_mcpu_tool("polled", json::object(), 100)));
  rpc::Engine engine(dispatcher);
  std::vector<std::string> out;
  engine.handle_line(R"({"jsonrpc":"2.0","id":1,"method":"list_tools"})", [&](std::string r) { out.push_back(r); });
  ASSERT_EQ(out.size(), 1u);
  const auto reply = json::parse(out[0]);
  EXPECT_EQ(reply.at("id"), 1);
  const auto& result = reply.at("result");
  EXPECT_EQ(result.at("device"), "board-1");
  EXPECT_EQ(result.at("version"), "1.2.3");
  EXPECT_EQ(result.at("tools").at(0).at("polling"), json::parse(R"({"enabled":true,"interval_ms":100})"));
  EXPECT_EQ(result.at("pins"), pins);
}

}  // namespace
}  // namespace mcpud::dialects
