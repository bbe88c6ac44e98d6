// SPDX-License-Identifier: MIT
// Unit tests of the JSON Schema subset validator: keywords, messages, defaults.
#include "mcpud/core/schema.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace mcpud::schema {
namespace {

using nlohmann::json;
using namespace nlohmann::literals;

// The error message, or "" when the value is valid; the value may be changed in place.
std::string error_of(const json& schema, json& value, std::string_view root = "params") {
  auto result = validate(schema, value, root);
  return result ? "" : result.error();
}

std::string error_of_copy(const json& schema, json value, std::string_view root = "params") {
  return error_of(schema, value, root);
}

// A case that runs `value` through `schema` (with root "params") and expects `error`.
struct Case {
  const char* name;
  json schema;
  json value;
  std::string error;  // empty: valid
};

void expect_cases(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    EXPECT_EQ(error_of_copy(c.schema, c.value), c.error) << c.name;
  }
}

// Parsing is iterative, so this builds a value deeper than any recursion could go.
json nested_arrays(std::size_t depth) { return json::parse(std::string(depth, '[') + std::string(depth, ']')); }

// --- trivial schemas -----------------------------------------------------------

TEST(Schema, Validate_EmptySchemaAcceptsAnything) {
  for (const json& value : {json(nullptr), json(true), json(1), json(1.5), json("x"), json::array(), json::object()}) {
    EXPECT_EQ(error_of_copy(json::object(), value), "") << value.dump();
  }
}

TEST(Schema, Validate_NonObjectSchemaOtherThanFalseAcceptsAnything) {
  EXPECT_EQ(error_of_copy(true, 42), "");
  EXPECT_EQ(error_of_copy("nonsense", 42), "");
}

TEST(Schema, Validate_FalseSchemaRejectsEverything) {
  EXPECT_EQ(error_of_copy(false, 42), "params: is not allowed here");
  EXPECT_EQ(error_of_copy(R"({"properties": {"pin": false}})"_json, {{"pin", 1}}), "params.pin: is not allowed here");
}

TEST(Schema, Validate_IgnoresUnknownKeywords) {
  const json schema = {{"type", "integer"}, {"description", "a pin"}, {"title", "Pin"}, {"x-extra", {1, 2}}};
  EXPECT_EQ(error_of_copy(schema, 5), "");
}

TEST(Schema, Validate_IgnoresKeywordsWithMalformedValues) {
  const auto schema =
      R"({"minimum": "5", "maxLength": null, "required": "pin", "pattern": 7, "type": [], "items": 3})"_json;
  EXPECT_EQ(error_of_copy(schema, 1), "");
  EXPECT_EQ(error_of_copy(schema, "abc"), "");
  EXPECT_EQ(error_of_copy(schema, json::object()), "");
  EXPECT_EQ(error_of_copy(schema, {1, "x"}), "");
}

// --- type ------------------------------------------------------------------------

TEST(Schema, Validate_AcceptsValuesOfTheNamedType) {
  const std::vector<std::pair<const char*, json>> cases = {
      {"null", nullptr},
      {"boolean", true},
      {"boolean", false},
      {"integer", 3},
      {"integer", -3},
      {"integer", 3u},
      {"number", 3},
      {"number", 2.5},
      {"string", "x"},
      {"array", json::array()},
      {"object", json::object()},
  };
  for (const auto& [type, value] : cases) {
    EXPECT_EQ(error_of_copy({{"type", type}}, value), "") << type << " " << value.dump();
  }
}

TEST(Schema, Validate_RejectsValuesOfAnotherType) {
  expect_cases({
      {"string for integer", {{"type", "integer"}}, "5", "params: expected integer, got string"},
      {"fraction for integer", {{"type", "integer"}}, 1.5, "params: expected integer, got number"},
      {"null for string", {{"type", "string"}}, nullptr, "params: expected string, got null"},
      {"object for array", {{"type", "array"}}, json::object(), "params: expected array, got object"},
      {"array for object", {{"type", "object"}}, json::array(), "params: expected object, got array"},
      {"boolean for number", {{"type", "number"}}, true, "params: expected number, got boolean"},
      {"integer for string", {{"type", "string"}}, 7, "params: expected string, got integer"},
  });
}

TEST(Schema, Validate_RejectsIntegerForBoolean) {
  EXPECT_EQ(error_of_copy({{"type", "boolean"}}, 1), "params: expected boolean, got integer");
  EXPECT_EQ(error_of_copy({{"type", "boolean"}}, 0), "params: expected boolean, got integer");
}

TEST(Schema, Validate_RejectsStringForBoolean) {
  EXPECT_EQ(error_of_copy({{"type", "boolean"}}, "true"), "params: expected boolean, got string");
}

TEST(Schema, Validate_AcceptsAnyTypeOfATypeList) {
  const json schema = {{"type", {"integer", "null"}}};
  EXPECT_EQ(error_of_copy(schema, 4), "");
  EXPECT_EQ(error_of_copy(schema, nullptr), "");
  EXPECT_EQ(error_of_copy(schema, "4"), "params: expected integer or null, got string");
}

TEST(Schema, Validate_AcceptsTheWholeIntegerRange) {
  const json schema = {{"type", "integer"}};
  EXPECT_EQ(error_of_copy(schema, std::numeric_limits<std::int64_t>::min()), "");
  EXPECT_EQ(error_of_copy(schema, std::numeric_limits<std::uint64_t>::max()), "");
}

TEST(Schema, Validate_StoresIntegralFloatBackAsInteger) {
  json positive = 3.0;
  ASSERT_EQ(error_of({{"type", "integer"}}, positive), "");
  EXPECT_TRUE(positive.is_number_integer());
  EXPECT_EQ(positive.get<std::uint64_t>(), 3u);

  json negative = -7.0;
  ASSERT_EQ(error_of({{"type", "integer"}}, negative), "");
  EXPECT_TRUE(negative.is_number_integer());
  EXPECT_EQ(negative.get<std::int64_t>(), -7);
}

TEST(Schema, Validate_KeepsFloatWhenNumberIsAlsoAllowed) {
  json value = 3.0;
  ASSERT_EQ(error_of({{"type", {"integer", "number"}}}, value), "");
  EXPECT_TRUE(value.is_number_float());
}

TEST(Schema, Validate_RejectsIntegralFloatTooLargeForAnInteger) {
  EXPECT_EQ(error_of_copy({{"type", "integer"}}, 1e300), "params: expected integer, got number");
}

// --- paths -----------------------------------------------------------------------

TEST(Schema, Validate_NamesTheRootValueByTheRoot) {
  EXPECT_EQ(error_of_copy({{"type", "object"}}, json::array(), "arguments"), "arguments: expected object, got array");
}

TEST(Schema, Validate_NamesTheRootValueAsValueWhenTheRootIsEmpty) {
  EXPECT_EQ(error_of_copy({{"type", "object"}}, 1, ""), "value: expected object, got integer");
}

TEST(Schema, Validate_NamesAPropertyAfterTheRoot) {
  const json schema = {{"properties", {{"pin", {{"type", "integer"}}}}}};
  EXPECT_EQ(error_of_copy(schema, {{"pin", "x"}}), "params.pin: expected integer, got string");
}

TEST(Schema, Validate_StartsThePathWithTheFirstKeyWhenTheRootIsEmpty) {
  const json schema = {{"properties", {{"pin", {{"type", "integer"}}}}}};
  EXPECT_EQ(error_of_copy(schema, {{"pin", "x"}}, ""), "pin: expected integer, got string");
}

TEST(Schema, Validate_NamesNestedPropertiesWithDots) {
  const auto schema = R"({"properties": {"limits": {"properties": {"max": {"maximum": 10}}}}})"_json;
  EXPECT_EQ(error_of_copy(schema, {{"limits", {{"max", 11}}}}), "params.limits.max: 11 is above the maximum 10");
}

TEST(Schema, Validate_NamesArrayElementsWithIndexes) {
  const auto schema = R"({"properties": {"pins": {"items": {"properties": {"type": {"enum": ["in", "out"]}}}}}})"_json;
  const auto value = R"({"pins": [{"type": "in"}, {"type": "out"}, {"type": "pwm"}]})"_json;
  EXPECT_EQ(error_of_copy(schema, value, ""), "pins[2].type: must be one of \"in\", \"out\", got \"pwm\"");
  EXPECT_EQ(error_of_copy(schema, value), "params.pins[2].type: must be one of \"in\", \"out\", got \"pwm\"");
}

TEST(Schema, Validate_NamesNestedArrayElementsWithOneIndexEach) {
  const auto schema = R"({"properties": {"matrix": {"items": {"items": {"type": "number"}}}}})"_json;
  EXPECT_EQ(error_of_copy(schema, R"({"matrix": [[1, 2], [3, "x"]]})"_json),
            "params.matrix[1][1]: expected number, got string");
}

TEST(Schema, Validate_StartsThePathWithTheIndexForARootArrayAndEmptyRoot) {
  EXPECT_EQ(error_of_copy({{"items", {{"type", "string"}}}}, {"a", 1}, ""), "[1]: expected string, got integer");
}

// --- properties, required, additionalProperties -----------------------------------

TEST(Schema, Validate_ReportsAMissingRequiredProperty) {
  const json schema = {{"required", {"pin", "value"}}, {"properties", {{"pin", {{"type", "integer"}}}}}};
  EXPECT_EQ(error_of_copy(schema, {{"pin", 1}}), "params.value: required property is missing");
  EXPECT_EQ(error_of_copy(schema, {{"pin", 1}, {"value", true}}), "");
}

TEST(Schema, Validate_ReportsAMissingRequiredPropertyInsideAnArrayElement) {
  const json schema = {{"items", {{"required", {"name"}}}}};
  EXPECT_EQ(error_of_copy(schema, {{{"name", "a"}}, json::object()}, ""), "[1].name: required property is missing");
}

TEST(Schema, Validate_IgnoresObjectKeywordsForOtherTypes) {
  const json schema = {{"required", {"pin"}}, {"properties", {{"pin", {{"type", "integer"}}}}}};
  EXPECT_EQ(error_of_copy(schema, "not an object"), "");
}

TEST(Schema, Validate_AllowsUnknownPropertiesUnlessForbidden) {
  const json properties = {{"pin", {{"type", "integer"}}}};
  EXPECT_EQ(error_of_copy({{"properties", properties}}, {{"pin", 1}, {"foo", 2}}), "");
  EXPECT_EQ(error_of_copy({{"properties", properties}, {"additionalProperties", true}}, {{"foo", 2}}), "");
}

TEST(Schema, Validate_RejectsUnknownPropertyWhenAdditionalPropertiesIsFalse) {
  const auto schema = R"({"additionalProperties": false,
                          "properties": {"pin": {"type": "integer"}, "value": {"type": "boolean"}}})"_json;
  EXPECT_EQ(error_of_copy(schema, {{"pin", 1}, {"foo", 2}}),
            "params.foo: unknown property (expected one of: pin, value)");
}

TEST(Schema, Validate_RejectsAnyPropertyWhenNoneAreDeclaredAndExtrasAreForbidden) {
  EXPECT_EQ(error_of_copy({{"additionalProperties", false}}, {{"foo", 1}}),
            "params.foo: unknown property (no properties are allowed)");
  EXPECT_EQ(error_of_copy({{"additionalProperties", false}}, json::object()), "");
}

TEST(Schema, Validate_ChecksExtraPropertiesAgainstTheAdditionalPropertiesSchema) {
  const auto schema =
      R"({"properties": {"pin": {"type": "integer"}}, "additionalProperties": {"type": "string"}})"_json;
  EXPECT_EQ(error_of_copy(schema, {{"pin", 1}, {"label", "x"}}), "");
  EXPECT_EQ(error_of_copy(schema, {{"pin", 1}, {"label", 2}}), "params.label: expected string, got integer");
}

// --- default ---------------------------------------------------------------------

TEST(Schema, Validate_FillsTheDefaultOfAnAbsentProperty) {
  const json schema = {{"properties", {{"mode", {{"type", "string"}, {"default", "auto"}}}}}};
  json value = json::object();
  ASSERT_EQ(error_of(schema, value), "");
  EXPECT_EQ(value, json({{"mode", "auto"}}));
}

TEST(Schema, Validate_KeepsAPresentPropertyOverItsDefault) {
  const json schema = {{"properties", {{"mode", {{"default", "auto"}}}}}};
  json value = {{"mode", "manual"}};
  ASSERT_EQ(error_of(schema, value), "");
  EXPECT_EQ(value, json({{"mode", "manual"}}));
}

TEST(Schema, Validate_TreatsARequiredPropertyWithADefaultAsPresent) {
  const json schema = {{"required", {"mode"}}, {"properties", {{"mode", {{"default", "auto"}}}}}};
  json value = json::object();
  ASSERT_EQ(error_of(schema, value), "");
  EXPECT_EQ(value["mode"], "auto");
}

TEST(Schema, Validate_FillsDefaultsNestedInsideADefaultObject) {
  const auto schema = R"({"properties": {"limits": {
      "type": "object", "default": {},
      "properties": {"max_clients": {"type": "integer", "default": 256}}}}})"_json;
  json value = json::object();
  ASSERT_EQ(error_of(schema, value, ""), "");
  EXPECT_EQ(value, json({{"limits", {{"max_clients", 256}}}}));
}

TEST(Schema, Validate_FillsDefaultsInsideEveryArrayElement) {
  const auto schema = R"({"items": {"properties": {"description": {"default": ""}}}})"_json;
  auto value = R"([{"name": "a"}, {"name": "b", "description": "led"}])"_json;
  ASSERT_EQ(error_of(schema, value), "");
  EXPECT_EQ(value, R"([{"name": "a", "description": ""}, {"name": "b", "description": "led"}])"_json);
}

TEST(Schema, Validate_CopiesDefaultsSoTheSchemaStaysUnchanged) {
  const auto schema = R"({"properties": {"listen": {"default": ["127.0.0.1:3000"]}}})"_json;
  const json original = schema;
  json value = json::object();
  ASSERT_EQ(error_of(schema, value), "");
  value["listen"].push_back("0.0.0.0:4000");
  EXPECT_EQ(schema, original);
}

TEST(Schema, Validate_ChecksAndConvertsAnInsertedDefault) {
  json value = json::object();
  ASSERT_EQ(error_of(R"({"properties": {"n": {"type": "integer", "default": 2.0}}})"_json, value), "");
  EXPECT_TRUE(value["n"].is_number_integer());
  EXPECT_EQ(error_of_copy(R"({"properties": {"n": {"type": "integer", "default": "x"}}})"_json, json::object()),
            "params.n: expected integer, got string");
}

TEST(Schema, DefaultsOf_IsWhatTheSchemaFillsIntoAnEmptyObject) {
  const auto schema = R"({"type": "object", "properties": {
      "mode": {"type": "string", "default": "auto"},
      "name": {"type": "string"},
      "limits": {"type": "object", "default": {}, "properties": {"max_clients": {"type": "integer", "default": 256}}},
      "pwm": {"type": "object", "properties": {"frequency_hz": {"type": "integer", "default": 1000}}}}})"_json;
  EXPECT_EQ(defaults_of(schema), R"({"mode": "auto", "limits": {"max_clients": 256}})"_json);
  EXPECT_EQ(defaults_of(schema["properties"]["pwm"]), R"({"frequency_hz": 1000})"_json);
}

TEST(Schema, DefaultsOf_RefusesASchemaThatAnEmptyObjectDoesNotSatisfy) {
  try {
    (void)defaults_of(R"({"required": ["id"], "properties": {"id": {"type": "string"}}})"_json);
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "an empty object does not satisfy the schema: id: required property is missing");
  }
}

// --- enum and const --------------------------------------------------------------

TEST(Schema, Validate_AcceptsOnlyEnumMembers) {
  const auto schema = R"({"properties": {"mode": {"enum": ["a", "b"]}}})"_json;
  EXPECT_EQ(error_of_copy(schema, {{"mode", "b"}}), "");
  EXPECT_EQ(error_of_copy(schema, {{"mode", "c"}}), "params.mode: must be one of \"a\", \"b\", got \"c\"");
}

TEST(Schema, Validate_ComparesEnumMembersAsWholeJsonValues) {
  const json schema = {{"enum", {1, "1", {{"k", 1}}, nullptr}}};
  EXPECT_EQ(error_of_copy(schema, 1.0), "");
  EXPECT_EQ(error_of_copy(schema, {{"k", 1}}), "");
  EXPECT_EQ(error_of_copy(schema, nullptr), "");
  EXPECT_EQ(error_of_copy(schema, true), "params: must be one of 1, \"1\", {\"k\":1}, null, got true");
}

TEST(Schema, Validate_AcceptsOnlyTheConstValue) {
  const json schema = {{"const", "2.0"}};
  EXPECT_EQ(error_of_copy(schema, "2.0"), "");
  EXPECT_EQ(error_of_copy(schema, "2.1"), "params: must be \"2.0\", got \"2.1\"");
}

// --- numbers ---------------------------------------------------------------------

TEST(Schema, Validate_ChecksNumericBounds) {
  const json duty = {{"minimum", 0}, {"maximum", 255}};
  const json scale = {{"exclusiveMinimum", 0}, {"exclusiveMaximum", 1.5}};
  expect_cases({
      {"at minimum", duty, 0, ""},
      {"at maximum", duty, 255, ""},
      {"below minimum", duty, -1, "params: -1 is below the minimum 0"},
      {"above maximum", duty, 300, "params: 300 is above the maximum 255"},
      {"float above maximum", duty, 255.5, "params: 255.5 is above the maximum 255"},
      {"inside exclusive range", scale, 0.5, ""},
      {"at exclusive minimum", scale, 0, "params: 0 is not above the exclusive minimum 0"},
      {"below exclusive minimum", scale, -2, "params: -2 is not above the exclusive minimum 0"},
      {"at exclusive maximum", scale, 1.5, "params: 1.5 is not below the exclusive maximum 1.5"},
      {"float bound", {{"minimum", 0.5}}, 0, "params: 0 is below the minimum 0.5"},
  });
}

TEST(Schema, Validate_NamesTheFieldInBoundMessages) {
  const auto schema = R"({"properties": {"duty": {"type": "integer", "maximum": 255}}})"_json;
  EXPECT_EQ(error_of_copy(schema, {{"duty", 300}}), "params.duty: 300 is above the maximum 255");
}

TEST(Schema, Validate_ComparesLargeIntegersExactly) {
  // 2^53 + 1 rounds to 2^53 as a double; so would a double-based check.
  const json schema = {{"maximum", 9007199254740992}};
  EXPECT_EQ(error_of_copy(schema, 9007199254740993), "params: 9007199254740993 is above the maximum 9007199254740992");
  EXPECT_EQ(error_of_copy({{"minimum", -1}}, std::numeric_limits<std::uint64_t>::max()), "");
  EXPECT_EQ(error_of_copy({{"maximum", 0}}, std::numeric_limits<std::uint64_t>::max()),
            "params: 18446744073709551615 is above the maximum 0");
}

TEST(Schema, Validate_AppliesNumericBoundsOnlyToNumbers) { EXPECT_EQ(error_of_copy({{"minimum", 10}}, "5"), ""); }

// --- strings ---------------------------------------------------------------------

TEST(Schema, Validate_ChecksStringLength) {
  const json name = {{"minLength", 1}, {"maxLength", 3}};
  expect_cases({
      {"shortest", name, "a", ""},
      {"longest", name, "abc", ""},
      {"empty", name, "", "params: is 0 characters long, less than the minimum 1"},
      {"too long", name, "abcd", "params: is 4 characters long, more than the maximum 3"},
      {"one character", {{"minLength", 2}}, "a", "params: is 1 character long, less than the minimum 2"},
  });
}

TEST(Schema, Validate_CountsCodePointsNotBytesForLength) {
  const json schema = {{"maxLength", 3}};
  EXPECT_EQ(error_of_copy(schema, "h\u00e9l"), "");                        // 4 bytes
  EXPECT_EQ(error_of_copy(schema, "\u65e5\u672c\u8a9e"), "");              // 9 bytes
  EXPECT_EQ(error_of_copy(schema, "\U0001F600\U0001F600\U0001F600"), "");  // 12 bytes
  EXPECT_EQ(error_of_copy(schema, "\u65e5\u672c\u8a9e!"), "params: is 4 characters long, more than the maximum 3");
}

TEST(Schema, Validate_MatchesPatternsAsUnanchoredEcmaScriptRegexes) {
  expect_cases({
      {"anchored match", {{"pattern", "^a+$"}}, "aaa", ""},
      {"anchored mismatch", {{"pattern", "^a+$"}}, "aab", "params: does not match pattern ^a+$"},
      {"unanchored finds a substring", {{"pattern", "a+"}}, "xxaxx", ""},
      {"ECMAScript class escape", {{"pattern", "^\\d{2}:\\d{2}$"}}, "12:30", ""},
      {"ECMAScript lookahead", {{"pattern", "^(?!gpio)"}}, "gpio4", "params: does not match pattern ^(?!gpio)"},
      {"pin name", {{"pattern", "^[A-Za-z_][A-Za-z0-9_.-]*$"}}, "led.red-1", ""},
      {"pin name with space",
       {{"pattern", "^[A-Za-z_][A-Za-z0-9_.-]*$"}},
       "led 1",
       "params: does not match pattern ^[A-Za-z_][A-Za-z0-9_.-]*$"},
  });
}

TEST(Schema, Validate_ReportsAnInvalidPatternInTheSchema) {
  EXPECT_EQ(error_of_copy({{"pattern", "(unclosed"}}, "x"),
            "params: the schema's pattern \"(unclosed\" is not a valid regular expression, or longer or more nested "
            "than mcpud accepts");
}

TEST(Schema, Validate_BoundsWhatAHostilePatternCosts) {
  // 100,000 nested groups (std::regex compiled this recursively until the stack ran out).
  const std::string nested = std::string(100000, '(') + "a" + std::string(100000, ')');
  EXPECT_NE(error_of_copy({{"pattern", nested}}, "a").find("is not a valid regular expression"), std::string::npos);
  // Exponential backtracking (std::regex took 8 s on 29 characters): refused within the match limit.
  EXPECT_EQ(error_of_copy({{"pattern", "^(a+)+$"}}, std::string(29, 'a') + "b"),
            "params: could not be matched against pattern ^(a+)+$ within mcpud's matching limits");
  EXPECT_EQ(error_of_copy({{"pattern", "^(a+)+$"}}, std::string(29, 'a')), "") << "a match is still a match";
}

TEST(Schema, Validate_RefusesToMatchAPatternAgainstAVeryLongString) {
  EXPECT_EQ(error_of_copy({{"pattern", "^(a|b)*$"}}, std::string(100000, 'a')),
            "params: is 100000 bytes long, too long to match against a pattern (at most 2048)");
  EXPECT_EQ(error_of_copy({{"pattern", "^(a|b)*$"}}, std::string(2048, 'a')), "");
}

TEST(Schema, Validate_MatchesPatternsFromSeveralThreadsAtOnce) {
  const json schema = {{"pattern", "^[0-9]+$"}};
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (std::size_t t = 0; t < failures.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        json good = std::to_string(i);
        json bad = "x" + std::to_string(i);
        if (!validate(schema, good, "") || validate(schema, bad, "")) ++failures[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

// --- arrays ----------------------------------------------------------------------

TEST(Schema, Validate_ChecksArrayLength) {
  const json pair = {{"minItems", 2}, {"maxItems", 2}};
  expect_cases({
      {"exactly two", pair, {1.0, 2.0}, ""},
      {"one", pair, {1.0}, "params: has 1 item, less than the minimum 2"},
      {"three", pair, {1, 2, 3}, "params: has 3 items, more than the maximum 2"},
      {"none", pair, json::array(), "params: has 0 items, less than the minimum 2"},
  });
}

TEST(Schema, Validate_ChecksEveryItemAndReportsTheFirstBadOne) {
  const auto schema = R"({"properties": {"thresholds": {"items": {"type": "number"}}}})"_json;
  EXPECT_EQ(error_of_copy(schema, R"({"thresholds": [1, 2.5, "x", null]})"_json),
            "params.thresholds[2]: expected number, got string");
}

TEST(Schema, Validate_ConvertsIntegralFloatsInsideArrays) {
  json value = {1.0, 2.0};
  ASSERT_EQ(error_of({{"items", {{"type", "integer"}}}}, value), "");
  EXPECT_TRUE(value[0].is_number_integer());
  EXPECT_TRUE(value[1].is_number_integer());
}

// --- anyOf -----------------------------------------------------------------------

TEST(Schema, Validate_AcceptsAValueMatchingAnyBranch) {
  const auto schema = R"({"properties": {"pin": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}})"_json;
  EXPECT_EQ(error_of_copy(schema, {{"pin", 4}}), "");
  EXPECT_EQ(error_of_copy(schema, {{"pin", "led"}}), "");
}

TEST(Schema, Validate_ListsTheAllowedFormsWhenNoBranchMatches) {
  const auto two = R"({"properties": {"pin": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}})"_json;
  EXPECT_EQ(error_of_copy(two, {{"pin", true}}), "params.pin: does not match any allowed form (integer, or string)");
  const auto three = R"({"anyOf": [{"type": ["integer", "null"]}, {"const": "auto"}, false]})"_json;
  EXPECT_EQ(error_of_copy(three, "x"),
            "params: does not match any allowed form (integer or null, \"auto\", or nothing)");
}

TEST(Schema, Validate_ReportsTheErrorOfTheOnlyBranchForTheValuesType) {
  const auto schema = R"({"properties": {"pin": {"anyOf": [
      {"type": "integer", "minimum": 0}, {"type": "string", "minLength": 1}]}}})"_json;
  EXPECT_EQ(error_of_copy(schema, {{"pin", -1}}), "params.pin: -1 is below the minimum 0");
  EXPECT_EQ(error_of_copy(schema, {{"pin", ""}}), "params.pin: is 0 characters long, less than the minimum 1");
}

TEST(Schema, Validate_ListsTheFormsWhenSeveralBranchesShareTheValuesType) {
  const auto schema = R"({"anyOf": [{"type": "integer", "maximum": 1}, {"type": "integer", "minimum": 10}]})"_json;
  EXPECT_EQ(error_of_copy(schema, 5), "params: does not match any allowed form (integer, or integer)");
}

TEST(Schema, Validate_KeepsOnlyTheChangesOfTheMatchingBranch) {
  const auto schema = R"({"anyOf": [
      {"required": ["kind"], "properties": {"kind": {"const": "a"}, "x": {"default": 1}}},
      {"properties": {"n": {"type": "integer"}, "y": {"default": 2}}}]})"_json;
  json value = {{"n", 5.0}};
  ASSERT_EQ(error_of(schema, value), "");
  EXPECT_EQ(value, json({{"n", 5}, {"y", 2}}));
  EXPECT_TRUE(value["n"].is_number_integer());
}

// --- depth -----------------------------------------------------------------------

TEST(Schema, Validate_HandlesVeryDeepValuesWithAShallowSchema) {
  constexpr std::size_t kDepth = 200000;
  json value = nested_arrays(kDepth);
  EXPECT_EQ(error_of(json::object(), value), "");
  EXPECT_EQ(error_of({{"type", "array"}, {"items", {{"type", "array"}}}}, value), "");
  EXPECT_EQ(error_of(R"({"anyOf": [{"type": "object"}, {"type": "array", "maxItems": 1}]})"_json, value), "");
  EXPECT_EQ(error_of({{"items", {{"type", "object"}}}}, value), "params[0]: expected object, got array");
}

}  // namespace
}  // namespace mcpud::schema
