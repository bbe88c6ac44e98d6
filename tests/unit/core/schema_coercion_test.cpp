// SPDX-License-Identifier: MIT
// The opt-in coercion of numeric strings ("9600") where a schema wants a number.
#include <gtest/gtest.h>

#include "mcpud/core/schema.hpp"

namespace mcpud::schema {
namespace {

using nlohmann::json;

const json kSchema = {{"type", "object"},
                      {"properties",
                       {{"baud", {{"type", "integer"}, {"minimum", 50}}},
                        {"stop_bits", {{"type", "number"}, {"enum", {1, 1.5, 2}}}},
                        {"name", {{"type", "string"}}},
                        {"either", {{"type", {"integer", "string"}}}}}}};

TEST(SchemaCoercion, OffByDefault) {
  json value = {{"baud", "9600"}};
  EXPECT_EQ(CompiledSchema(kSchema).validate(value, "params").error(), "params.baud: expected integer, got string");
}

TEST(SchemaCoercion, NumericStringsBecomeNumbersWhereTheSchemaWantsOne) {
  const CompiledSchema schema(kSchema, Options{true});
  json value = {{"baud", " 9600 "}, {"stop_bits", "1.5"}, {"name", "42"}, {"either", "7"}};
  ASSERT_TRUE(schema.validate(value, "params"));
  EXPECT_EQ(value["baud"], 9600);
  EXPECT_TRUE(value["baud"].is_number_integer());
  EXPECT_EQ(value["stop_bits"], 1.5);
  EXPECT_EQ(value["name"], "42");   // a string field stays a string
  EXPECT_EQ(value["either"], "7");  // a string is allowed there: no guessing
}

TEST(SchemaCoercion, CoercedValuesAreStillChecked) {
  const CompiledSchema schema(kSchema, Options{true});
  json low = {{"baud", "10"}};
  EXPECT_EQ(schema.validate(low, "params").error(), "params.baud: 10 is below the minimum 50");
  json fractional = {{"baud", "96.5"}};
  EXPECT_EQ(schema.validate(fractional, "params").error(), "params.baud: expected integer, got number");
  json wrong_choice = {{"stop_bits", "3"}};
  EXPECT_FALSE(schema.validate(wrong_choice, "params"));
}

TEST(SchemaCoercion, OtherStringsStillFailNamingTheField) {
  const CompiledSchema schema(kSchema, Options{true});
  for (const char* text : {"fast", "", "0x10", "inf", "nan", "12abc", "1 2"}) {
    json value = {{"baud", text}};
    const auto result = schema.validate(value, "params");
    ASSERT_FALSE(result) << text;
    EXPECT_EQ(result.error().rfind("params.baud: expected integer, got string", 0), 0u) << result.error();
  }
}

}  // namespace
}  // namespace mcpud::schema
