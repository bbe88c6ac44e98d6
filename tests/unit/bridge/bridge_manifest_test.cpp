// SPDX-License-Identifier: MIT
// Unit tests of reading list_tools replies: device schemas, fallback schemas, polling, pins.
#include <gtest/gtest.h>

#include "device_manifest.hpp"
#include "mcpud/core/schema.hpp"
#include "mcpud/core/shown_text.hpp"

namespace mcpud::bridge {
namespace {

using nlohmann::json;

std::string check(const json& schema, json value) {
  auto valid = schema::validate(schema, value, "params");
  return valid ? "" : valid.error();
}

TEST(FallbackSchema, BuiltInsGetTheReferenceParameters) {
  EXPECT_EQ(check(fallback_schema("gpio_write"), {{"pin", 13}, {"value", true}}), "");
  EXPECT_EQ(check(fallback_schema("gpio_write"), {{"pin", 13}, {"value", 1}}),
            "params.value: expected boolean, got integer");
  EXPECT_NE(check(fallback_schema("gpio_write"), {{"pin", 13}}), "");
  EXPECT_NE(check(fallback_schema("gpio_read"), {{"pin", "led"}}), "");
  EXPECT_NE(check(fallback_schema("pwm_write"), {{"pin", 9}, {"duty", 256}}), "");
  EXPECT_EQ(check(fallback_schema("pwm_write"), {{"pin", 9}, {"duty", 255}}), "");
  EXPECT_EQ(check(fallback_schema("adc_read"), {{"pin", 0}}), "");
  for (const char* tool : {"get_pin_summary", "get_pin_buffer", "get_pin_events"}) {
    EXPECT_EQ(check(fallback_schema(tool), {{"pin", 34}}), "") << tool;
    // One type per property (hosts read a single type): the pin by number.
    EXPECT_EQ(fallback_schema(tool)["properties"]["pin"]["type"], "integer") << tool;
  }
  EXPECT_NE(check(fallback_schema("get_pin_buffer"), {{"pin", 34}, {"limit", 0}}), "");
}

TEST(FallbackSchema, UnknownCustomToolsTakeAnyObject) {
  EXPECT_EQ(check(fallback_schema("set_servo"), {{"angle", 90}, {"speed", "fast"}}), "");
  EXPECT_NE(check(fallback_schema("set_servo"), json::array()), "");
}

TEST(Manifest, AvrListingWithoutSchemasGetsFallbacks) {
  const json listing = {
      {"tools", {{{"name", "gpio_write"}, {"description", "Write"}}, {{"name", "blink"}, {"description", "Blink"}}}}};
  const auto manifest = read_manifest(listing, "uno__");
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->tools.size(), 2u);
  EXPECT_FALSE(manifest->tools[0].schema_from_device);
  EXPECT_EQ(manifest->tools[0].input_schema["required"], json({"pin", "value"}));
  EXPECT_EQ(manifest->tools[1].input_schema, json({{"type", "object"}}));
}

// MCP's annotations, when a device gives them, are kept as its word; a tool
// without them, or with hints that are not booleans, keeps the cautious
// defaults and says nobody described it. Titles are shown text like descriptions.
TEST(Manifest, HintsAndTitlesADeviceGivesAreKeptAsItsWord) {
  const json listing = {{"tools",
                         {{{"name", "read_temp"},
                           {"title", "Read\nthe temperature"},
                           {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}},
                          {{"name", "blink"}},
                          {{"name", "odd"}, {"annotations", {{"readOnlyHint", "yes"}, {"destructiveHint", 0}}}}}}};
  const auto manifest = read_manifest(listing, "uno__");
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->tools.size(), 3u);
  const auto& read = manifest->tools[0].hints;
  EXPECT_EQ(read.from, HintsFrom::Device);
  EXPECT_TRUE(read.read_only);
  EXPECT_FALSE(read.open_world);
  EXPECT_TRUE(read.destructive) << "what it did not say stays cautious";
  EXPECT_EQ(manifest->tools[0].title, one_line_text("Read\nthe temperature"));
  for (const std::size_t i : {1u, 2u}) {
    const auto& hints = manifest->tools[i].hints;
    EXPECT_EQ(hints.from, HintsFrom::Nobody) << manifest->tools[i].name;
    EXPECT_FALSE(hints.read_only);
    EXPECT_TRUE(hints.destructive && hints.open_world && !hints.idempotent);
    EXPECT_EQ(manifest->tools[i].title, "");
  }
}

TEST(Manifest, DeviceSchemasAndPollingAreKept) {
  const json schema = {{"type", "object"}, {"properties", {{"pin", {{"type", "integer"}}}}}, {"required", {"pin"}}};
  const json listing = {{"tools",
                         {{{"name", "adc_read"}, {"description", "Read"}, {"inputSchema", schema}},
                          {{"name", "read_touch"},
                           {"inputSchema", json::object()},
                           {"polling", {{"enabled", true}, {"interval_ms", 2000}}}},
                          {{"name", "fast"}, {"polling", {{"enabled", true}, {"interval_ms", 1}}}},
                          {{"name", "off"}, {"polling", {{"enabled", false}, {"interval_ms", 100}}}}}}};
  const auto manifest = read_manifest(listing, "uno__");
  ASSERT_TRUE(manifest);
  EXPECT_TRUE(manifest->tools[0].schema_from_device);
  EXPECT_EQ(manifest->tools[0].input_schema, schema);
  EXPECT_EQ(manifest->tools[1].polling_ms, 2000u);
  EXPECT_EQ(manifest->tools[2].polling_ms, 50u) << "a device cannot make mcpud poll faster than 50 ms";
  EXPECT_FALSE(manifest->tools[3].polling_ms);
}

TEST(Manifest, MalformedEntriesAreSkippedAndNamed) {
  const json listing = {
      {"tools",
       {{{"name", "list_tools"}},
        {{"description", "nameless"}},
        {{"name", "dup"}},
        {{"name", "dup"}},
        {{"name", "weird"}, {"inputSchema", {{"type", "array"}}}},
        {{"name", std::string(100, 'x')}}}},
      {"pins", {{{"pin", "2"}, {"name", "led"}}, {{"pin", -1}, {"name", "neg"}}, {{"pin", 2}, {"name", "led"}}}}};
  const auto manifest = read_manifest(listing, "uno__");
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->tools.size(), 2u);
  EXPECT_EQ(manifest->tools[0].name, "dup");
  EXPECT_EQ(manifest->tools[1].name, "weird");
  EXPECT_FALSE(manifest->tools[1].schema_from_device) << "a schema that is not an object schema is replaced";
  EXPECT_EQ(manifest->pins.size(), 1u);
  EXPECT_EQ(manifest->skipped.size(), 4u) << "nameless, the unusable schema, pin \"2\" and pin -1";
  const std::vector<Refusal> refused = {{"tool", "dup", "listed twice (the first is kept)"},
                                        {"tool", std::string(64, 'x') + "... (100 bytes)",
                                         "'uno__' and the name make 105 characters; hosts take at most 64"}};
  EXPECT_EQ(manifest->refused, refused);
}

// What a hostile device listed (issue 39), and why each is not exported.
TEST(Manifest, NamesOutsideTheMcpToolNameCharactersAreRefusedAndShownEscaped) {
  using namespace std::string_literals;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a\nb", "'\\x0a' is not one of"},
      {"a\0b"s, "'\\x00' is not one of"},
      {"evil\u202Etxt", "'\\u202e' is not one of"},
      {"say\"hi", "'\"' is not one of"},
      {"<script>alert(1)</script>", "'<' is not one of"},
      {"../../etc", "'/' is not one of"},
      {"tools/list", "'/' is not one of"},
      {"caf\u00e9", "'\u00e9' is not one of"},
      {"__proto__", "\"__\" separates the bridge id from the name"},
      {"", "the name is empty"},
  };
  json tools = json::array();
  for (const auto& [name, why] : cases) tools.push_back({{"name", name}});
  tools.push_back({{"name", std::string(59, 'n')}});  // "uno__" and 59: 64, the most hosts take
  const auto manifest = read_manifest({{"tools", tools}}, "uno__");
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->tools.size(), 1u);
  EXPECT_EQ(manifest->tools[0].name, std::string(59, 'n'));
  ASSERT_EQ(manifest->refused.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& refusal = manifest->refused[i];
    EXPECT_EQ(refusal.kind, "tool");
    EXPECT_TRUE(refusal.reason.starts_with(cases[i].second)) << refusal.reason;
    EXPECT_FALSE(has_hidden_characters(refusal.name)) << refusal.name;
  }
  EXPECT_EQ(manifest->refused[0].name, "a\\x0ab");
  EXPECT_EQ(manifest->refused[2].name, "evil\\u202etxt");
}

TEST(Manifest, TheLengthLimitCountsThePrefix) {
  EXPECT_EQ(name_refusal(std::string(59, 'n'), "uno__"), std::nullopt);
  EXPECT_TRUE(name_refusal(std::string(60, 'n'), "uno__"));
  EXPECT_EQ(name_refusal(std::string(61, 'n'), "a__"), std::nullopt);
  EXPECT_TRUE(name_refusal(std::string(62, 'n'), "a__"));
  EXPECT_EQ(name_refusal("read-sensor.v2_A", "uno__"), std::nullopt) << "every MCP tool name character";
}

TEST(Manifest, DescriptionsAndSchemaTextLoseTheirControlCharacters) {
  const json schema = {
      {"type", "object"},
      {"title", "Set\x1b[31m"},
      {"properties",
       {{"level",
         {{"type", "string"}, {"description", "line one\nline two\u202E"}, {"enum", {"a\nb"}}, {"default", "a\nb"}}}}}};
  const json listing = {
      {"tools", {{{"name", "set"}, {"description", "Set\r\nthe\tlevel"}, {"inputSchema", schema}}}},
      {"pins", {{{"pin", 2}, {"name", "led"}, {"type", "digital\x01output"}, {"description", "L\u0085ED"}}}}};
  const auto manifest = read_manifest(listing, "uno__");
  ASSERT_TRUE(manifest);
  const auto& tool = manifest->tools.at(0);
  EXPECT_EQ(tool.description, "Set  the level");
  EXPECT_EQ(tool.input_schema["title"], "Set [31m");
  EXPECT_EQ(tool.input_schema["properties"]["level"]["description"], "line one line two ");
  EXPECT_EQ(tool.input_schema["properties"]["level"]["enum"][0], "a\nb") << "values an argument may take are kept";
  EXPECT_EQ(tool.input_schema["properties"]["level"]["default"], "a\nb");
  EXPECT_EQ(manifest->pins.at(0).type, "digital output");
  EXPECT_EQ(manifest->pins.at(0).description, "L ED");
}

TEST(Manifest, NoToolsArrayIsAnError) {
  EXPECT_FALSE(read_manifest(json::object(), "uno__"));
  EXPECT_FALSE(read_manifest({{"tools", "gpio_write"}}, "uno__"));
}

TEST(Manifest, BufferedPinsCarryTheirSampling) {
  const json listing = {{"tools", json::array()},
                        {"pins",
                         {{{"pin", 34},
                           {"name", "sensor"},
                           {"type", "adc_input"},
                           {"capabilities", {{"summary", true}, {"buffer", true}, {"events", false}}},
                           {"sampling", {{"interval_ms", 500}, {"buffer_size", 20}}}},
                          {{"pin", 2}, {"name", "led"}, {"type", "digital_output"}}}}};
  const auto manifest = read_manifest(listing, "uno__");
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->pins.size(), 2u);
  EXPECT_TRUE(manifest->pins[0].buffer);
  EXPECT_EQ(manifest->pins[0].interval_ms, 500u);
  EXPECT_EQ(manifest->pins[0].buffer_size, 20u);
  EXPECT_FALSE(manifest->pins[1].buffer);
}

}  // namespace
}  // namespace mcpud::bridge
