// SPDX-License-Identifier: MIT
// OutgoingBytes: frames queued during a write go out together in the next one,
// partial writes resume where they stopped, and the count is always exact.
#include "mcpud/io/outgoing_bytes.hpp"

#include <string>

#include <gtest/gtest.h>

namespace mcpud::io {
namespace {

TEST(OutgoingBytesQueue, FramesQueuedDuringAWriteGoOutTogetherInTheNext) {
  io::OutgoingBytes out;
  out.append("one");
  EXPECT_EQ(out.next(), "one");
  out.append("two");
  out.append("three");
  EXPECT_EQ(out.size(), 11u);
  out.consumed(3);
  EXPECT_EQ(out.next(), "twothree");
  out.consumed(8);
  EXPECT_TRUE(out.empty());
}

TEST(OutgoingBytesQueue, APartialWriteResumesWhereItStopped) {
  io::OutgoingBytes out;
  out.append("abcdef");
  EXPECT_EQ(out.next(), "abcdef");
  out.consumed(2);
  out.append("gh");  // waits for the current write to finish
  EXPECT_EQ(out.size(), 6u);
  EXPECT_EQ(out.next(), "cdef");
  out.consumed(4);
  EXPECT_EQ(out.next(), "gh");
  out.consumed(2);
  EXPECT_EQ(out.size(), 0u);
}

TEST(OutgoingBytesQueue, ALargeBurstIsCountedAndCleared) {
  io::OutgoingBytes out;
  const std::string frame(1000, 'x');
  for (int i = 0; i < 200; ++i) out.append(frame);
  EXPECT_EQ(out.next().size(), 200'000u);
  out.consumed(200'000);
  out.append("after");
  EXPECT_EQ(out.next(), "after");
  out.clear();
  EXPECT_TRUE(out.empty());
  out.append("again");
  EXPECT_EQ(out.next(), "again");
}

}  // namespace
}  // namespace mcpud::io
