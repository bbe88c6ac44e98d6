// SPDX-License-Identifier: MIT
// The ##START frame codec: every split point, coalesced frames, garbage,
// over-long frames, bad headers, and the encoder's refusals.
#include "start_frame.hpp"

#include <gtest/gtest.h>

namespace mcpud::uplinks {
namespace {

constexpr std::size_t kRoomForAnyFrame = 1 << 20;  // more than any frame these tests send whole

std::string frame(FrameType type, std::string_view task_id, unsigned seq, std::string_view content) {
  auto encoded = encode_frame(type, task_id, seq, content);
  EXPECT_TRUE(encoded.has_value()) << encoded.error();
  return encoded.value_or("");
}

std::vector<StartFrame> frames_of(const std::vector<Decoded>& decoded) {
  std::vector<StartFrame> out;
  for (const auto& d : decoded) {
    if (const auto* f = std::get_if<StartFrame>(&d)) out.push_back(*f);
  }
  return out;
}

std::vector<FrameProblem> problems_of(const std::vector<Decoded>& decoded) {
  std::vector<FrameProblem> out;
  for (const auto& d : decoded) {
    if (const auto* p = std::get_if<FrameProblem>(&d)) out.push_back(*p);
  }
  return out;
}

const std::vector<StartFrame> kFrames{
    {FrameType::Auth, "00000000", 0, "token##voiceid:v1##lang:en##format:pcm"},
    {FrameType::Mcp, "mcp00001", 0, R"({"type":"call","data":{"call_id":"c1","method":"gpio_read","params":{}}})"},
    {FrameType::Text, "task1234", 0, "What time is it?"},
    {FrameType::EndFrame, "task1234", 1, ""},
    {FrameType::Status, "00000000", 42, "##PING"},
};

std::string stream_of(const std::vector<StartFrame>& frames) {
  std::string out;
  for (const auto& f : frames) out += frame(f.type, f.task_id, f.seq, f.content);
  return out;
}

TEST(StartFrame, EncodesTheHeaderAsTheReferenceShows) {
  EXPECT_EQ(frame(FrameType::Text, "task1234", 0, "What time is it?"), "##START\x04task12340000What time is it?##END");
  EXPECT_EQ(frame(FrameType::EndFrame, "task1234", 1, ""), "##START\x03task12340001##END");
  EXPECT_EQ(frame(FrameType::Mcp, "7", 12, "{}"),
            "##START\x06"
            "0000000700"
            "12{}##END");
}

TEST(StartFrame, EncoderRefusesWhatThePeerCouldNotFrame) {
  EXPECT_EQ(encode_frame(FrameType::Text, "task12345", 0, "x").error(),
            "TaskID 'task12345' is longer than 8 characters");
  EXPECT_EQ(encode_frame(FrameType::Text, "task", 10000, "x").error(), "Seq 10000 does not fit in 4 digits");
  EXPECT_FALSE(encode_frame(FrameType::Text, "task", 0, "say ##END now"));
  EXPECT_FALSE(encode_frame(FrameType::Text, "ta\nk", 0, "x"));
}

TEST(StartFrame, JsonWithMarkersIsEscapedAndStillTheSameJson) {
  EXPECT_EQ(frame_safe_json(R"({"a":"b#c"})"), R"({"a":"b#c"})");
  const auto safe = frame_safe_json(R"({"a":"x##END y"})");
  EXPECT_EQ(safe, R"({"a":"x\u0023\u0023END y"})");
  EXPECT_TRUE(encode_frame(FrameType::Mcp, "mcp00001", 0, safe));
}

TEST(StartFrame, DecodesCoalescedFramesInOneRead) {
  StartFrameDecoder decoder(kRoomForAnyFrame);
  std::vector<Decoded> out;
  decoder.feed(stream_of(kFrames), out);
  EXPECT_EQ(frames_of(out), kFrames);
  EXPECT_TRUE(problems_of(out).empty());
  EXPECT_EQ(decoder.buffered_bytes(), 0u);
}

TEST(StartFrame, DecodesTheSameFramesWhereverTheStreamIsSplit) {
  const std::string stream = stream_of(kFrames);
  for (std::size_t first = 0; first <= stream.size(); ++first) {
    for (std::size_t second = first; second <= stream.size(); second += 7) {
      StartFrameDecoder decoder(kRoomForAnyFrame);
      std::vector<Decoded> out;
      decoder.feed(std::string_view(stream).substr(0, first), out);
      decoder.feed(std::string_view(stream).substr(first, second - first), out);
      decoder.feed(std::string_view(stream).substr(second), out);
      ASSERT_EQ(frames_of(out), kFrames) << "split at " << first << " and " << second;
      ASSERT_TRUE(problems_of(out).empty()) << "split at " << first << " and " << second;
    }
  }
}

TEST(StartFrame, DecodesAStreamFedOneByteAtATime) {
  const std::string stream = stream_of(kFrames);
  StartFrameDecoder decoder(kRoomForAnyFrame);
  std::vector<Decoded> out;
  for (const char c : stream) decoder.feed(std::string_view(&c, 1), out);
  EXPECT_EQ(frames_of(out), kFrames);
  EXPECT_EQ(decoder.skipped_total(), 0u);
}

TEST(StartFrame, SkipsGarbageBetweenFramesAndSaysHowMuch) {
  const std::string stream = "noise" + frame(FrameType::Text, "a0000001", 0, "one") + "\r\n#STAR##" +
                             frame(FrameType::Text, "a0000001", 1, "two");
  for (std::size_t split = 0; split <= stream.size(); ++split) {
    StartFrameDecoder decoder(kRoomForAnyFrame);
    std::vector<Decoded> out;
    decoder.feed(std::string_view(stream).substr(0, split), out);
    decoder.feed(std::string_view(stream).substr(split), out);
    const auto frames = frames_of(out);
    ASSERT_EQ(frames.size(), 2u) << "split at " << split;
    EXPECT_EQ(frames[0].content, "one");
    EXPECT_EQ(frames[1].content, "two");
    const auto problems = problems_of(out);
    ASSERT_EQ(problems.size(), 2u) << "split at " << split;
    EXPECT_EQ(problems[0].skipped, 5u);
    EXPECT_EQ(problems[0].message, "skipped 5 bytes that are not a frame");
    EXPECT_EQ(problems[1].skipped, 9u);
    EXPECT_EQ(decoder.skipped_total(), 14u);
  }
}

TEST(StartFrame, RejectsABadTypeByteAndDecodesTheNextFrame) {
  StartFrameDecoder decoder(kRoomForAnyFrame);
  std::vector<Decoded> out;
  decoder.feed(
      "##START\x09"
      "abcdefgh0000hello##END" +
          frame(FrameType::Text, "abcdefgh", 0, "ok"),
      out);
  const auto problems = problems_of(out);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].message, "bad frame type byte 0x09 (expected 0x01..0x08)");
  ASSERT_EQ(frames_of(out).size(), 1u);
  EXPECT_EQ(frames_of(out)[0].content, "ok");
}

TEST(StartFrame, RejectsASeqThatIsNotFourDigits) {
  StartFrameDecoder decoder(kRoomForAnyFrame);
  std::vector<Decoded> out;
  decoder.feed("##START\x04task12340a01hi##END" + frame(FrameType::Text, "task1234", 2, "ok"), out);
  const auto problems = problems_of(out);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].message, "Seq '0a01' is not 4 digits");
  ASSERT_EQ(frames_of(out).size(), 1u);
  EXPECT_EQ(frames_of(out)[0].seq, 2u);
}

TEST(StartFrame, DropsAFrameCutOffByTheNextStart) {
  StartFrameDecoder decoder(kRoomForAnyFrame);
  std::vector<Decoded> out;
  decoder.feed("##START\x04task12340000half a fra" + frame(FrameType::Text, "task1234", 1, "whole"), out);
  ASSERT_EQ(frames_of(out).size(), 1u);
  EXPECT_EQ(frames_of(out)[0].content, "whole");
  ASSERT_EQ(problems_of(out).size(), 1u);
  EXPECT_EQ(problems_of(out)[0].message, "dropped a frame cut off by the next ##START");
}

TEST(StartFrame, DropsAnOverLongFrameWithoutBufferingItAndResynchronises) {
  constexpr std::size_t kMax = 256;
  StartFrameDecoder decoder(kMax);
  std::vector<Decoded> out;
  decoder.feed("##START\x04task12340000", out);
  const std::string chunk(100, 'x');
  for (int i = 0; i < 1000; ++i) {
    decoder.feed(chunk, out);
    ASSERT_LE(decoder.buffered_bytes(), kMax + chunk.size());
  }
  EXPECT_TRUE(out.empty());
  decoder.feed("tail##END" + frame(FrameType::Text, "task1234", 1, "next"), out);
  ASSERT_EQ(problems_of(out).size(), 1u);
  EXPECT_EQ(problems_of(out)[0].skipped, 20u + 100'000u + 9u);
  EXPECT_EQ(problems_of(out)[0].message, "dropped a frame longer than 256 bytes (100029 bytes skipped)");
  ASSERT_EQ(frames_of(out).size(), 1u);
  EXPECT_EQ(frames_of(out)[0].content, "next");
}

TEST(StartFrame, DropsAnOverLongFrameThatArrivesWhole) {
  StartFrameDecoder decoder(64);
  std::vector<Decoded> out;
  decoder.feed(frame(FrameType::Text, "task1234", 0, std::string(100, 'y')) + frame(FrameType::Text, "t", 1, "ok"),
               out);
  ASSERT_EQ(problems_of(out).size(), 1u);
  EXPECT_EQ(problems_of(out)[0].skipped, 125u);
  ASSERT_EQ(frames_of(out).size(), 1u);
  EXPECT_EQ(frames_of(out)[0].task_id, "0000000t");
}

TEST(StartFrame, GarbageWithoutFramesIsNotBuffered) {
  StartFrameDecoder decoder(kRoomForAnyFrame);
  std::vector<Decoded> out;
  for (int i = 0; i < 1000; ++i) decoder.feed(std::string(1000, 'g') + "##STA", out);
  EXPECT_LE(decoder.buffered_bytes(), 6u);
  decoder.feed(
      "RT\x05"
      "00000000"
      "0000##PING##END",
      out);
  ASSERT_EQ(frames_of(out).size(), 1u);
  EXPECT_EQ(problems_of(out).size(), 1u);
  EXPECT_EQ(problems_of(out)[0].skipped, 1000u * 1005u - 5u);
}

}  // namespace
}  // namespace mcpud::uplinks
