// SPDX-License-Identifier: MIT
// The schema compiler and validator with both sides fuzzed: a schema (what a
// bridged device declares) and a value (a client's arguments), separated by a
// NUL. Without a NUL the input is a value checked against fixed schemas.
#include <nlohmann/json.hpp>

#include "mcpud/core/schema.hpp"
#include "support/fuzz_input.hpp"

namespace {

using nlohmann::json;

void check(const json& schema, const json& value, bool coerce) {
  const mcpud::schema::CompiledSchema compiled(schema, {.coerce_numeric_strings = coerce});
  auto copy = value;
  (void)compiled.validate(copy, "arguments");
  copy = value;
  (void)mcpud::schema::validate(schema, copy, "arguments");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const json fixed = json::parse(R"({"type":"object","properties":{
    "pin":{"type":"integer","minimum":0,"maximum":40},
    "text":{"type":"string","pattern":"^(a|b)*c$","maxLength":32},
    "list":{"type":"array","items":{"anyOf":[{"type":"number"},{"const":"x"}]},"maxItems":4}},
    "required":["pin"],"additionalProperties":false})");
  const auto [first, second] = mcpud::fuzz::split_at_nul(mcpud::fuzz::as_text(data, size));
  const auto schema = json::parse(first, nullptr, false);
  if (schema.is_discarded()) return 0;
  if (second.empty() && first.size() == size) return check(fixed, schema, size % 2 == 0), 0;
  const auto value = json::parse(second, nullptr, false);
  if (value.is_discarded()) return 0;
  check(schema, value, size % 2 == 0);
  return 0;
}
