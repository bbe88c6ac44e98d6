// SPDX-License-Identifier: MIT
// mcpud.toml(5), made from the configuration schema: every table and key with
// its type, default, range and choices, so that the manual page cannot drift
// from what the daemon accepts. Plain functions; any thread.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace mcpud::config {

// The manual page (roff) of a configuration whose JSON Schema is `schema`
// (config::schema()), for mcpud `version`.
std::string manual_page(const nlohmann::json& schema, const std::string& version);

}  // namespace mcpud::config
