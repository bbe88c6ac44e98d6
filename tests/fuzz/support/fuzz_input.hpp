// SPDX-License-Identifier: MIT
// What every fuzz target shares: the input as text, and the split of one input
// into the parts of a two-part target (a schema and a value, a pattern and a
// subject, ...), separated by the first NUL byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace mcpud::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// {before the first NUL, after it}; without a NUL the second part is empty.
inline std::pair<std::string_view, std::string_view> split_at_nul(std::string_view input) {
  const auto nul = input.find('\0');
  if (nul == std::string_view::npos) return {input, {}};
  return {input.substr(0, nul), input.substr(nul + 1)};
}

}  // namespace mcpud::fuzz
