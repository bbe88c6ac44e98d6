// SPDX-License-Identifier: MIT
// Newline framing on TCP: line endings, partial lines, several lines per write,
// the line-length cap, binary garbage and empty lines.
#include <sys/socket.h>

#include <random>
#include <thread>

#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using Framing = SimDaemonTest;

json read_json(LineClient& client) {
  const auto line = client.read_line();
  if (!line) return nullptr;
  EXPECT_EQ(line->find('\r'), std::string::npos) << "replies end in a bare \\n";
  return json::parse(*line, nullptr, false);
}

// The reply to a request with this id that reads the led.
json led_read(int id) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"pin", 2}, {"name", "led"}, {"value", false}}}};
}

std::string read_led(int id) { return request_text("gpio_read", {{"pin", 2}}, id); }

TEST_F(Framing, CrLfTerminatedRequestIsAccepted) {
  ASSERT_TRUE(client().send_raw(read_led(1) + "\r\n"));
  EXPECT_EQ(read_json(client()), led_read(1));
}

TEST_F(Framing, LineSplitAcrossTwoWritesWithAPauseIsAnsweredOnceComplete) {
  const std::string line = read_led(2);
  const auto half = line.size() / 2;
  ASSERT_TRUE(client().send_raw(line.substr(0, half)));
  // Inherent pause: the daemon must hold the partial line, not answer it.
  EXPECT_TRUE(client().silent_for(300ms)) << "a half-written line was answered";
  ASSERT_TRUE(client().send_raw(line.substr(half) + "\n"));
  EXPECT_EQ(read_json(client()), led_read(2));
}

TEST_F(Framing, CrLfSplitBetweenItsTwoBytesIsOneLineEnding) {
  ASSERT_TRUE(client().send_raw(read_led(3) + "\r"));
  EXPECT_TRUE(client().silent_for(200ms));
  ASSERT_TRUE(client().send_raw("\n" + read_led(4) + "\n"));
  EXPECT_EQ(read_json(client()), led_read(3));
  EXPECT_EQ(read_json(client()), led_read(4));
}

TEST_F(Framing, RequestWrittenOneByteAtATimeIsAnswered) {
  for (const char c : read_led(5) + "\n") ASSERT_TRUE(client().send_raw(std::string(1, c)));
  EXPECT_EQ(read_json(client()), led_read(5));
}

TEST_F(Framing, SeveralRequestsInOneWriteAreAnsweredInOrder) {
  std::string burst;
  for (int id = 10; id < 20; ++id) burst += read_led(id) + (id % 2 ? "\r\n" : "\n");
  ASSERT_TRUE(client().send_raw(burst));
  for (int id = 10; id < 20; ++id) EXPECT_EQ(read_json(client()), led_read(id));
}

TEST_F(Framing, OverLongLineGetsOneInvalidRequestErrorAndTheConnectionStillAnswers) {
  ASSERT_TRUE(client().send_raw(std::string(70000, 'x') + "\n" + read_led(21) + "\n", 10s));
  EXPECT_EQ(
      read_json(client()),
      json::parse(
          R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: line longer than 65536 bytes"}})"));
  EXPECT_EQ(read_json(client()), led_read(21)) << "exactly one error for the long line, then normal service";
}

TEST_F(Framing, OverLongLineArrivingInPiecesIsReportedOnce) {
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(client().send_raw(std::string(20000, '{')));
    std::this_thread::sleep_for(20ms);  // separate reads on the daemon's side
  }
  ASSERT_TRUE(client().send_raw("\n" + read_led(22) + "\n"));
  const json error = read_json(client());
  EXPECT_EQ(error["id"], nullptr);
  EXPECT_TRUE(is_error(error, -32600));
  EXPECT_EQ(read_json(client()), led_read(22));
}

TEST_F(Framing, LineOfExactlyTheCapIsAccepted) {
  std::string line = read_led(23);
  line.append(65536 - line.size(), ' ');  // JSON allows trailing whitespace
  ASSERT_TRUE(client().send_raw(line + "\n" + line + "\r\n", 10s));
  EXPECT_EQ(read_json(client()), led_read(23));
  EXPECT_EQ(read_json(client()), led_read(23)) << "the \\r of a maximal CRLF line does not count";
  ASSERT_TRUE(client().send_raw(line + " \n" + read_led(24) + "\n", 10s));
  EXPECT_TRUE(is_error(read_json(client()), -32600)) << "one byte over the cap";
  EXPECT_EQ(read_json(client()), led_read(24));
}

TEST_F(Framing, BinaryGarbageGetsParseErrorsAndTheConnectionLivesOn) {
  std::mt19937 random(20240607);
  std::uniform_int_distribution<int> byte(0, 255);
  std::string garbage;
  constexpr int kLines = 8;
  for (int i = 0; i < kLines; ++i) {
    garbage.push_back('\0');  // never valid JSON
    for (int j = 0; j < 200; ++j) {
      char c = static_cast<char>(byte(random));
      if (c == '\n' || c == '[' || c == '{') c = '\x01';
      garbage.push_back(c);
    }
    garbage.push_back('\n');
  }
  ASSERT_TRUE(client().send_raw(garbage + read_led(25) + "\n"));
  for (int i = 0; i < kLines; ++i) {
    const json reply = read_json(client());
    EXPECT_EQ(reply["id"], nullptr) << reply.dump();
    EXPECT_TRUE(is_error(reply, -32700)) << "line " << i;
  }
  EXPECT_EQ(read_json(client()), led_read(25));
}

// Blank lines too: spaces and tabs are no request (they got -32700).
TEST_F(Framing, EmptyLinesAreIgnored) {
  ASSERT_TRUE(client().send_raw("\n\n\r\n\n" + read_led(26) + "\n\r\n \t\n  \r\n" + read_led(27) + "\n"));
  EXPECT_EQ(read_json(client()), led_read(26));
  EXPECT_EQ(read_json(client()), led_read(27));
  EXPECT_TRUE(client().silent_for(200ms)) << "empty lines got replies";
}

TEST_F(Framing, ClientThatHalfClosesAfterItsRequestsStillGetsTheReplies) {
  ASSERT_TRUE(client().send_raw(read_led(28) + "\n" + read_led(29) + "\n"));
  ASSERT_EQ(::shutdown(client().fd(), SHUT_WR), 0);
  EXPECT_EQ(read_json(client()), led_read(28));
  EXPECT_EQ(read_json(client()), led_read(29));
  EXPECT_TRUE(client().wait_closed()) << "the daemon closes after the last reply";
}

TEST_F(Framing, UnterminatedLastLineIsNotAnswered) {
  ASSERT_TRUE(client().send_raw(read_led(30)));
  EXPECT_TRUE(client().silent_for(300ms));
}

// ... until the client ends its input: then it is the last line (as
// `printf '{...}' | nc -N host port` sends it), answered before the close.
TEST_F(Framing, UnterminatedLastLineIsAnsweredWhenTheClientEndsItsInput) {
  ASSERT_TRUE(client().send_raw(read_led(31) + "\n" + read_led(32)));
  ASSERT_EQ(::shutdown(client().fd(), SHUT_WR), 0);
  EXPECT_EQ(read_json(client()), led_read(31));
  EXPECT_EQ(read_json(client()), led_read(32));
  EXPECT_TRUE(client().wait_closed()) << "the daemon closes after the last reply";
}

}  // namespace
}  // namespace mcpud::it
