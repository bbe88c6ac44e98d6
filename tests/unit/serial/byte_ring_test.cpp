// SPDX-License-Identifier: MIT
// ByteRing: keeps the newest bytes, counts every dropped one, wraps correctly.
#include <gtest/gtest.h>

#include "mcpud/serial/byte_ring.hpp"

namespace mcpud::serial {
namespace {

TEST(ByteRing, KeepsBytesInOrderAcrossTheWrap) {
  ByteRing ring(8);
  ring.push("abcdef");
  EXPECT_EQ(ring.take(4), "abcd");
  ring.push("ghijkl");  // wraps past the end of the storage
  EXPECT_EQ(ring.size(), 8u);
  EXPECT_EQ(ring.peek(100), "efghijkl");
  EXPECT_EQ(ring.lost(), 0u);
  EXPECT_EQ(ring.take(3), "efg");
  EXPECT_EQ(ring.take(100), "hijkl");
  EXPECT_TRUE(ring.empty());
}

TEST(ByteRing, OverflowDropsTheOldestAndCountsThem) {
  ByteRing ring(4);
  ring.push("abc");
  ring.push("def");
  EXPECT_EQ(ring.peek(4), "cdef");
  EXPECT_EQ(ring.lost(), 2u);
}

TEST(ByteRing, APushBiggerThanTheRingKeepsItsTail) {
  ByteRing ring(4);
  ring.push("xy");
  ring.push("0123456789");
  EXPECT_EQ(ring.take(10), "6789");
  EXPECT_EQ(ring.lost(), 8u);  // "xy" and "012345"
}

TEST(ByteRing, ClearReportsWhatItDiscardedWithoutCountingItLost) {
  ByteRing ring(16);
  ring.push("hello");
  EXPECT_EQ(ring.clear(), 5u);
  EXPECT_EQ(ring.lost(), 0u);
  EXPECT_TRUE(ring.empty());
  ring.push("again");
  EXPECT_EQ(ring.take(5), "again");
}

TEST(ByteRing, BinaryBytesSurvive) {
  ByteRing ring(4);
  ring.push(std::string("\0\xff\0", 3));
  EXPECT_EQ(ring.take(3), std::string("\0\xff\0", 3));
}

}  // namespace
}  // namespace mcpud::serial
