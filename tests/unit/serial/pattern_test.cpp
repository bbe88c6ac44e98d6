// SPDX-License-Identifier: MIT
// Patterns for serial_read_until and serial_exec: literals, regexes on raw
// bytes, bad expressions, runaway backtracking.
#include <gtest/gtest.h>

#include "mcpud/serial/pattern.hpp"

namespace mcpud::serial {
namespace {

TEST(Pattern, LiteralFindsTheFirstOccurrence) {
  auto p = Pattern::literal("> ");
  ASSERT_TRUE(p);
  const auto m = (*p)->find("a > b > ");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->begin, 2u);
  EXPECT_EQ(m->end, 4u);
  EXPECT_FALSE((*p)->find("nothing"));
  EXPECT_FALSE(Pattern::literal(""));
}

TEST(Pattern, RegexMatchesAcrossLinesAndBinary) {
  auto p = Pattern::regex("^READY v[0-9.]+>");
  ASSERT_TRUE(p);
  const std::string text = std::string("boot\0\xff\n", 7) + "READY v1.2> ";
  const auto m = (*p)->find(text);
  ASSERT_TRUE(m);
  EXPECT_EQ(text.substr(m->begin, m->end - m->begin), "READY v1.2>");
}

TEST(Pattern, ABadRegexSaysWhereItIsBroken) {
  const auto p = Pattern::regex("(unclosed");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().find("at offset 9"), std::string::npos) << p.error();
}

TEST(Pattern, CatastrophicBacktrackingEndsAsNoMatch) {
  auto p = Pattern::regex("(a+)+$");
  ASSERT_TRUE(p);
  EXPECT_FALSE((*p)->find(std::string(40, 'a') + "!"));
}

TEST(Pattern, LongSubjectsAreSafe) {
  auto p = Pattern::regex("(x|y)*z");
  ASSERT_TRUE(p);
  EXPECT_TRUE((*p)->find(std::string(65536, 'x') + "z"));
}

}  // namespace
}  // namespace mcpud::serial
