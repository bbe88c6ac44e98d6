// SPDX-License-Identifier: MIT
// The buses tests' check that a message says something.
#pragma once

#include <string>

namespace mcpud::buses {

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace mcpud::buses
