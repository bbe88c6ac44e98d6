// SPDX-License-Identifier: MIT
// Turns `mcpuctl call` arguments (NAME=VALUE words, or one JSON object) into a
// tool's JSON arguments, typing each value by the tool's input schema.
#pragma once

#include <expected>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::ctl {

// pin=17 -> 17 when the schema says integer (or number), value=true -> true for
// boolean, strings stay strings for string; for other or unknown parameters a
// value that parses as JSON is taken as JSON, otherwise as a string. A single
// word starting with '{' is the whole arguments object. Errors name the word.
std::expected<nlohmann::json, std::string> typed_arguments(const std::vector<std::string>& words,
                                                           const nlohmann::json& input_schema);

}  // namespace mcpud::ctl
