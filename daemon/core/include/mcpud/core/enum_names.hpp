// SPDX-License-Identifier: MIT
// The names of an enum's values, written once as a table: the name of a value
// and the value of a name come from the same place. Usable at compile time.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace mcpud {

template <class Enum, std::size_t N>
using EnumNames = std::array<std::pair<Enum, std::string_view>, N>;

// The name of `value`; `fallback` for a value the table lacks.
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const EnumNames<Enum, N>& names, Enum value, std::string_view fallback = "?") {
  for (const auto& [v, name] : names) {
    if (v == value) return name;
  }
  return fallback;
}

// The value named `name`; nothing for a name the table lacks.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumNames<Enum, N>& names, std::string_view name) {
  for (const auto& [value, n] : names) {
    if (n == name) return value;
  }
  return std::nullopt;
}

}  // namespace mcpud
