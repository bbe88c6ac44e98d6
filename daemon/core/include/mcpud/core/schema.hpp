// SPDX-License-Identifier: MIT
// A small JSON Schema validator for the subset mcpud uses in tool input schemas
// and in the configuration schema.
#pragma once

#include <expected>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcpud::schema {

// Checks `value` against `schema` and fills in `default`s of absent object
// properties (in place). `root` names the value in messages, e.g. "params" gives
// "params.pin: expected integer, got string"; an empty root gives "pins[2].type: ...".
//
// Supported keywords: type (a name or a list of names), properties, required,
// additionalProperties (boolean or schema), default, enum, const, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength, maxLength (in UTF-8 code points),
// pattern (ECMAScript regex), items, minItems, maxItems, anyOf. Unknown keywords
// (description, title, ...) are ignored.
//
// "integer" accepts a number with no fractional part (1.0 is stored back as 1);
// "boolean" accepts only true/false (1 is not a boolean).
//
// Returns the first problem found, as a message naming the field.
std::expected<void, std::string> validate(const nlohmann::json& schema, nlohmann::json& value,
                                          std::string_view root);

}  // namespace mcpud::schema
