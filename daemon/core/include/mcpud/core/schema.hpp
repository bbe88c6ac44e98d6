// SPDX-License-Identifier: MIT
// A small JSON Schema validator for the subset mcpud uses in tool input schemas
// and in the configuration schema.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <expected>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcpud::schema {

// Checks `value` against `schema` and fills in `default`s of absent object
// properties (in place). `root` names the value in messages, e.g. "params" gives
// "params.pin: expected integer, got string" and "params.pins[2].type: ..."; an
// empty root gives "pins[2].type: ...", and "value: ..." for the root value itself.
//
// Supported keywords: type (a name or a list of names), properties, required,
// additionalProperties (boolean or schema), default, enum, const, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum (numbers, not draft-4 booleans), minLength,
// maxLength (in UTF-8 code points), pattern (unanchored ECMAScript regex), items (one
// schema for every element), minItems, maxItems, anyOf. Unknown keywords
// (description, title, ...) and keywords with a value of the wrong JSON type are
// ignored. The schema `{}` (or any non-object but `false`) accepts everything;
// `false` accepts nothing.
//
// "integer" accepts a number with no fractional part that fits 64 bits (1.0 is
// stored back as 1); "boolean" accepts only true/false (1 is not a boolean).
// A default is deep-copied and then checked like a given value, which fills the
// defaults nested inside it; a required property that has a default is never
// missing. anyOf keeps the changes of the first branch that accepts the value.
// Strings over 2048 bytes are rejected where a pattern applies, because
// std::regex would recurse per character and could overflow the stack.
//
// Recursion follows the schema, not the value, so values of any depth are safe.
// Returns the first problem found, as a message naming the field.
std::expected<void, std::string> validate(const nlohmann::json& schema, nlohmann::json& value, std::string_view root);

// What `schema` fills into an empty object: the defaults of its properties, the
// nested ones included. This is how a configuration section gets its defaults
// without a second copy of them in the code. Throws std::logic_error when the
// empty object does not satisfy the schema (a required property without a
// default): a defect of the schema, not of any input.
nlohmann::json defaults_of(const nlohmann::json& schema);

struct Options {
  // Opt-in: where the schema wants an integer or a number (and not a string), a
  // string holding one ("9600", "-3", "1.5") is accepted and stored back as the
  // number; any other string still fails with "expected integer, got string".
  bool coerce_numeric_strings = false;
};

// The same check with the schema digested once: keywords are looked up when it is
// built, not on every call, which is what a tool called many times a second
// wants. Holds its own copy of the schema; not copyable or movable because it
// points into that copy.
class CompiledSchema {
 public:
  explicit CompiledSchema(nlohmann::json schema, Options options = {});
  ~CompiledSchema();
  CompiledSchema(const CompiledSchema&) = delete;
  CompiledSchema& operator=(const CompiledSchema&) = delete;

  std::expected<void, std::string> validate(nlohmann::json& value, std::string_view root) const;
  const nlohmann::json& source() const { return source_; }

  struct Node;

 private:
  nlohmann::json source_;
  Options options_;
  std::unique_ptr<const Node> root_;
};

}  // namespace mcpud::schema
