// SPDX-License-Identifier: MIT
// Encodings of serial bytes: strict UTF-8, split characters, hex, base64.
#include <gtest/gtest.h>

#include "encoding.hpp"

namespace mcpud::serial {
namespace {

TEST(Encoding, Utf8ValidityFollowsRfc3629) {
  EXPECT_TRUE(valid_utf8("plain ascii"));
  EXPECT_TRUE(valid_utf8("\xE2\x82\xAC \xF0\x9F\x98\x80"));  // euro sign, emoji
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));                      // overlong '/'
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));                  // a UTF-16 surrogate
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));              // past U+10FFFF
  EXPECT_FALSE(valid_utf8("\xFF"));
  EXPECT_FALSE(valid_utf8("\xE2\x82"));  // cut short
}

TEST(Encoding, LossyUtf8ReplacesEachBadByteAndSaysSo) {
  bool lossy = false;
  EXPECT_EQ(encode("a\xFF"
                   "b",
                   Encoding::Utf8, &lossy),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_TRUE(lossy);
  EXPECT_EQ(encode("fine", Encoding::Utf8, &lossy), "fine");
  EXPECT_FALSE(lossy);
}

TEST(Encoding, AnIncompleteTrailingCharacterIsFound) {
  EXPECT_EQ(incomplete_utf8_tail("abc"), 0u);
  EXPECT_EQ(incomplete_utf8_tail("abc\xE2"), 1u);
  EXPECT_EQ(incomplete_utf8_tail("abc\xE2\x82"), 2u);
  EXPECT_EQ(incomplete_utf8_tail("abc\xF0\x9F\x98"), 3u);
  EXPECT_EQ(incomplete_utf8_tail("abc\xE2\x82\xAC"), 0u);
  EXPECT_EQ(incomplete_utf8_tail("abc\xFF"), 0u);  // invalid, not incomplete: nothing to wait for
}

TEST(Encoding, HexBothWays) {
  EXPECT_EQ(to_hex(std::string("\x00\x7f\xff", 3)), "007fff");
  EXPECT_EQ(*decode("00 7F:ff-10", Encoding::Hex), std::string("\x00\x7f\xff\x10", 4));
  EXPECT_EQ(decode("abc", Encoding::Hex).error(), "odd number of hex digits");
  EXPECT_EQ(decode("zz", Encoding::Hex).error(), "invalid hex digit 'z' at offset 0");
}

TEST(Encoding, Base64BothWays) {
  for (const std::string& bytes : {std::string(""), std::string("f"), std::string("fo"), std::string("foo"),
                                   std::string("foob"), std::string("\x00\xfb\xff", 3)}) {
    const auto text = to_base64(bytes);
    EXPECT_EQ(*decode(text, Encoding::Base64), bytes) << text;
  }
  EXPECT_EQ(to_base64("foob"), "Zm9vYg==");
  EXPECT_EQ(*decode("Zm9vYg", Encoding::Base64), "foob");  // padding optional
  EXPECT_FALSE(decode("Zm9vY", Encoding::Base64).has_value());
  EXPECT_FALSE(decode("Zm9v!", Encoding::Base64).has_value());
  EXPECT_FALSE(decode("Zg==Zg==", Encoding::Base64).has_value());
}

TEST(Encoding, NamesRoundTrip) {
  for (auto e : {Encoding::Utf8, Encoding::Hex, Encoding::Base64}) EXPECT_EQ(parse_encoding(encoding_name(e)), e);
  EXPECT_FALSE(parse_encoding("latin1"));
}

}  // namespace
}  // namespace mcpud::serial
