// SPDX-License-Identifier: MIT
// What the config tests ask of parse(): the error a text gets, or the config it
// gives. Shared by the config test files (one definition for a unity build too).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

#include "config.hpp"

namespace mcpud::config {

// Substring check with a readable failure message.
inline ::testing::AssertionResult has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not in: " << text;
}

// The error parse() reports for TOML, or "" when it parses.
inline std::string error_of(std::string_view toml) {
  const auto config = parse(toml, "test.toml");
  return config ? "" : config.error();
}

// The config TOML gives; a text that does not parse fails the test and gives
// the defaults.
inline Config parsed(std::string_view toml) {
  auto config = parse(toml, "test.toml");
  EXPECT_TRUE(config) << (config ? "" : config.error());
  return config ? std::move(*config) : Config{};
}

}  // namespace mcpud::config
