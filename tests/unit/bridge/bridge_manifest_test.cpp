// SPDX-License-Identifier: MIT
// Unit tests of reading list_tools replies: device schemas, fallback schemas, polling, pins.
#include <gtest/gtest.h>

#include "device_manifest.hpp"
#include "mcpud/core/schema.hpp"

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
  const auto manifest = read_manifest(listing);
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->tools.size(), 2u);
  EXPECT_FALSE(manifest->tools[0].schema_from_device);
  EXPECT_EQ(manifest->tools[0].input_schema["required"], json({"pin", "value"}));
  EXPECT_EQ(manifest->tools[1].input_schema, json({{"type", "object"}}));
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
  const auto manifest = read_manifest(listing);
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
  const auto manifest = read_manifest(listing);
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->tools.size(), 2u);
  EXPECT_EQ(manifest->tools[0].name, "dup");
  EXPECT_EQ(manifest->tools[1].name, "weird");
  EXPECT_FALSE(manifest->tools[1].schema_from_device) << "a schema that is not an object schema is replaced";
  EXPECT_EQ(manifest->pins.size(), 1u);
  EXPECT_GE(manifest->skipped.size(), 5u);
}

TEST(Manifest, NoToolsArrayIsAnError) {
  EXPECT_FALSE(read_manifest(json::object()));
  EXPECT_FALSE(read_manifest({{"tools", "gpio_write"}}));
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
  const auto manifest = read_manifest(listing);
  ASSERT_TRUE(manifest);
  ASSERT_EQ(manifest->pins.size(), 2u);
  EXPECT_TRUE(manifest->pins[0].buffer);
  EXPECT_EQ(manifest->pins[0].interval_ms, 500u);
  EXPECT_EQ(manifest->pins[0].buffer_size, 20u);
  EXPECT_FALSE(manifest->pins[1].buffer);
}

}  // namespace
}  // namespace mcpud::bridge
