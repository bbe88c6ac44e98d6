// SPDX-License-Identifier: MIT
// A TOML document (mcpud.toml) as JSON, so the config schema checks it with the
// same validator as tool arguments. Every layer that owns a config section
// reads its part of that JSON.
#pragma once

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcpud {

// The most a configuration may hold; larger ones are refused unread.
inline constexpr std::size_t kMaxConfigBytes = 1024 * 1024;

// Parses TOML text into JSON; `source` names it in messages ("file:line:column:
// what"). Dates and times are refused with the key that holds them. Files over
// 1 MiB, and keys or values nested deeper than 64, are refused before parsing:
// the parser recurses and must not meet a nesting bomb.
std::expected<nlohmann::json, std::string> read_toml_document(std::string_view toml_text, std::string_view source);

}  // namespace mcpud
