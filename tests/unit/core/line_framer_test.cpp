// SPDX-License-Identifier: MIT
// Unit tests of LineFramer: line endings, partial lines, the length cap and its recovery.
#include "mcpud/core/line_framer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mcpud {
namespace {

// Everything a framer reported, in order: lines as themselves, overflows as "<overflow>".
struct Framed {
  std::vector<std::string> out;
  int overflows = 0;
};

Framed feed_all(LineFramer& framer, const std::vector<std::string>& reads) {
  Framed framed;
  for (const auto& bytes : reads) {
    framer.feed(
        bytes, [&](std::string_view line) { framed.out.emplace_back(line); },
        [&] {
          framed.out.emplace_back("<overflow>");
          ++framed.overflows;
        });
  }
  return framed;
}

Framed feed_all(std::size_t cap, const std::vector<std::string>& reads) {
  LineFramer framer(cap);
  return feed_all(framer, reads);
}

struct Case {
  const char* name;
  std::size_t cap;
  std::vector<std::string> reads;
  std::vector<std::string> expected;
};

TEST(LineFramer, SplitsReadsIntoLinesAsTable) {
  const std::vector<Case> cases = {
      {"one line with \\n", 64, {"abc\n"}, {"abc"}},
      {"one line with \\r\\n", 64, {"abc\r\n"}, {"abc"}},
      {"two lines in one read", 64, {"a\nb\n"}, {"a", "b"}},
      {"mixed endings", 64, {"a\r\nb\nc\r\n"}, {"a", "b", "c"}},
      {"empty lines are skipped", 64, {"\n\r\n\na\n\n"}, {"a"}},
      {"a line split in three reads", 64, {"ab", "cd", "ef\n"}, {"abcdef"}},
      {"\\r and \\n in separate reads", 64, {"abc\r", "\n"}, {"abc"}},
      {"one byte per read", 64, {"x", "y", "\r", "\n", "z", "\n"}, {"xy", "z"}},
      {"an inner \\r is kept", 64, {"a\rb\n"}, {"a\rb"}},
      {"no newline: nothing yet", 64, {"abc"}, {}},
      {"line of exactly the cap", 4, {"abcd\n"}, {"abcd"}},
      {"line of exactly the cap with \\r\\n", 4, {"abcd\r\n"}, {"abcd"}},
      {"cap-long line with \\r\\n split before \\n", 4, {"abcd\r", "\n"}, {"abcd"}},
      {"cap-long line split before \\r", 4, {"abcd", "\r\n"}, {"abcd"}},
      {"one over the cap in one read", 4, {"abcde\n"}, {"<overflow>"}},
      {"one over the cap in two reads", 4, {"abcde", "\n"}, {"<overflow>"}},
      {"over the cap, split, with \\r\\n", 4, {"abc", "de\r\n"}, {"<overflow>"}},
      {"long line then a good one in one read", 4, {"abcdefgh\nok\n"}, {"<overflow>", "ok"}},
      {"long line across reads then a good one", 4, {"abcdefgh", "ijklmn", "opq\nok\n"}, {"<overflow>", "ok"}},
      {"good, long, good", 4, {"a\nbbbbbbbbbb\nc\n"}, {"a", "<overflow>", "c"}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(feed_all(c.cap, c.reads).out, c.expected) << c.name;
  }
}

TEST(LineFramer, KeepsPartialLineUntilItsRest) {
  LineFramer framer(64);
  auto first = feed_all(framer, {"{\"id\":1,"});
  EXPECT_TRUE(first.out.empty());
  EXPECT_EQ(framer.pending_bytes(), 8u);
  auto rest = feed_all(framer, {"\"x\":2}\n"});
  EXPECT_EQ(rest.out, std::vector<std::string>{"{\"id\":1,\"x\":2}"});
  EXPECT_EQ(framer.pending_bytes(), 0u);
}

TEST(LineFramer, ReportsAnOverLongLineOnceHoweverManyReadsItSpans) {
  LineFramer framer(8);
  std::vector<std::string> reads(100, std::string(50, 'x'));
  reads.push_back("tail\n");
  const auto framed = feed_all(framer, reads);
  EXPECT_EQ(framed.overflows, 1);
  EXPECT_EQ(framed.out, std::vector<std::string>{"<overflow>"});
}

TEST(LineFramer, HoldsNoBytesWhileDiscardingAnOverLongLine) {
  LineFramer framer(8);
  feed_all(framer, {std::string(100, 'x')});
  EXPECT_EQ(framer.pending_bytes(), 0u);
  feed_all(framer, {std::string(1000, 'y')});
  EXPECT_EQ(framer.pending_bytes(), 0u);
}

TEST(LineFramer, FramesNormallyAfterAnOverLongLineEnds) {
  LineFramer framer(8);
  const auto framed = feed_all(framer, {std::string(20, 'x'), "x\n", "short", "\r\n", "again\n"});
  EXPECT_EQ(framed.out, (std::vector<std::string>{"<overflow>", "short", "again"}));
}

TEST(LineFramer, ReportsEachOfSeveralOverLongLines) {
  const auto framed = feed_all(4, {"aaaaaa\nbbbbbb\n", "cccccc", "c\n"});
  EXPECT_EQ(framed.overflows, 3);
}

TEST(LineFramer, CountsTheCapWithoutTheLineEnding) {
  // A cap-long line plus its "\r" may sit in the buffer; one more byte is too many.
  LineFramer framer(4);
  EXPECT_TRUE(feed_all(framer, {"abcd\r"}).out.empty());
  EXPECT_EQ(framer.pending_bytes(), 5u);
  EXPECT_EQ(feed_all(framer, {"x"}).out, std::vector<std::string>{"<overflow>"});
}

TEST(LineFramer, TellsHowLongAnOverLongLineWasOnceItEnds) {
  LineFramer framer(8);
  std::vector<std::size_t> ends;
  const auto feed = [&](std::string_view bytes) {
    framer.feed(
        bytes, [](std::string_view) {}, [] {}, [&](std::size_t bytes) { ends.push_back(bytes); });
  };
  feed(std::string(30, 'x'));
  EXPECT_EQ(framer.overlong_bytes(), 30u) << "what has arrived of it so far";
  EXPECT_TRUE(ends.empty());
  feed(std::string(20, 'x') + "\r\nok\n" + std::string(12, 'y') + "\n");
  EXPECT_EQ(ends, (std::vector<std::size_t>{50, 12})) << "across reads, and within one";
  EXPECT_EQ(framer.overlong_bytes(), 0u);
}

TEST(LineFramer, ReportsItsCap) { EXPECT_EQ(LineFramer(1234).max_line_bytes(), 1234u); }

TEST(LineFramer, PassesLinesOfEveryLengthUpToTheCap) {
  constexpr std::size_t kCap = 16;
  for (std::size_t length = 1; length <= kCap + 2; ++length) {
    for (const std::string ending : {"\n", "\r\n"}) {
      const std::string line(length, 'q');
      const auto framed = feed_all(kCap, {line + ending});
      if (length <= kCap) {
        EXPECT_EQ(framed.out, std::vector<std::string>{line}) << length;
      } else {
        EXPECT_EQ(framed.out, std::vector<std::string>{"<overflow>"}) << length;
      }
    }
  }
}

TEST(LineFramer, GivesTheSameLinesHoweverTheStreamIsSplit) {
  const std::string stream = "first\r\nsecond\n\nthird line\r\n" + std::string(40, 'L') + "\nlast\n";
  const std::vector<std::string> expected = {"first", "second", "third line", "<overflow>", "last"};
  for (std::size_t split = 1; split < stream.size(); ++split) {
    EXPECT_EQ(feed_all(16, {stream.substr(0, split), stream.substr(split)}).out, expected) << split;
  }
  std::vector<std::string> bytes;
  for (const char c : stream) bytes.emplace_back(1, c);
  EXPECT_EQ(feed_all(16, bytes).out, expected);
}

}  // namespace
}  // namespace mcpud
