// SPDX-License-Identifier: MIT
// Unit tests of showing peers' text: what counts as hidden, how it is escaped or replaced.
#include "mcpud/core/shown_text.hpp"

#include <gtest/gtest.h>

namespace mcpud {
namespace {

using namespace std::string_literals;

TEST(ShownText, PlainTextAndOtherScriptsAreLeftAlone) {
  for (const std::string& text : {"gpio_write"s, "Température du capteur"s, "温度"s, "🙂 ok"s, ""s}) {
    EXPECT_FALSE(has_hidden_characters(text)) << text;
    EXPECT_EQ(escaped_text(text), text);
    EXPECT_EQ(one_line_text(text), text);
  }
}

TEST(ShownText, ControlCharactersAreEscapedAsBytes) {
  EXPECT_EQ(escaped_text("a\nb"), "a\\x0ab");
  EXPECT_EQ(escaped_text("a\0b"s), "a\\x00b");
  EXPECT_EQ(escaped_text("\x1b[2J\tx\x7f"), "\\x1b[2J\\x09x\\x7f");
  EXPECT_EQ(escaped_text("\xfe garbage"), "\\xfe garbage") << "invalid UTF-8";
  EXPECT_EQ(escaped_text("\xc0\xaf"), "\\xc0\\xaf") << "an overlong '/'";
  EXPECT_EQ(escaped_text("\xe2\x80"), "\\xe2\\x80") << "a character cut short";
}

TEST(ShownText, InvisibleFormattingCharactersAreEscapedAsCodePoints) {
  EXPECT_TRUE(has_hidden_characters("abc\u202Egnp.exe"));
  EXPECT_EQ(escaped_text("abc\u202Egnp"), "abc\\u202egnp");
  EXPECT_EQ(escaped_text("x\u2028y\u2066z\u0085"), "x\\u2028y\\u2066z\\u0085");
}

TEST(ShownText, OneLineTextReplacesEachHiddenCharacterWithASpace) {
  EXPECT_EQ(one_line_text("Read\nthe\tsensor\u202E\x01"), "Read the sensor  ");
  EXPECT_EQ(one_line_text("\xff"), " ");
}

TEST(ShownText, LongTextIsCutWithoutSplittingACharacter) {
  EXPECT_EQ(escaped_text(std::string(100, 'x'), 8), "xxxxxxxx... (100 bytes)");
  EXPECT_EQ(escaped_text("ab\u00e9cd", 3), "ab... (6 bytes)") << "é is two bytes: not cut in half";
}

}  // namespace
}  // namespace mcpud
