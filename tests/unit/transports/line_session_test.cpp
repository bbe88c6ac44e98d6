// SPDX-License-Identifier: MIT
// Unit tests of a line session on a real socket pair, the event loop stepped
// by hand: how a read of many lines is served and its replies written.
#include "line_session.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <sstream>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace mcpud::transports {
namespace {

using nlohmann::json;
using Socket = boost::asio::local::stream_protocol::socket;

// Answers every request with the same hundred-byte result, counting them.
class CountingHandler final : public rpc::MethodHandler {
 public:
  void handle(rpc::Client&, std::string_view, json&&, ToolReply&& reply) override {
    ++calls;
    reply(json{{"padding", std::string(100, 'x')}});
  }
  int calls = 0;
};

// `count` request lines, ids 0 to count - 1.
std::string request_lines(int count) {
  std::string lines;
  for (int id = 0; id < count; ++id)
    lines += R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"m"})" + "\n";
  return lines;
}

struct SessionOnSocketPair : ::testing::Test {
  SessionOnSocketPair() {
    boost::asio::local::connect_pair(ours, theirs);
    SessionLimits limits;
    limits.max_line_bytes = 4096;
    limits.queue_bytes = 1 << 20;
    limits.max_clients = 1;
    session = std::make_shared<LineSession<Socket>>(std::move(ours), engine, limits, "peer", "unix", [](Session&) {});
  }

  // `count` requests, ids 0 to count - 1, sent in one write (so read at once).
  void send_requests(int count) { boost::asio::write(theirs, boost::asio::buffer(request_lines(count))); }

  // Every reply line the session has written so far.
  std::vector<std::string> written_lines() {
    theirs.non_blocking(true);
    boost::system::error_code ec;
    std::array<char, 4096> chunk;
    while (const std::size_t n = theirs.read_some(boost::asio::buffer(chunk), ec)) received.append(chunk.data(), n);
    for (std::size_t end; (end = received.find('\n')) != std::string::npos; received.erase(0, end + 1)) {
      written.push_back(received.substr(0, end));
    }
    return written;
  }

  boost::asio::io_context io;
  Socket ours{io};
  Socket theirs{io};
  CountingHandler handler;
  rpc::Engine engine{handler};
  std::shared_ptr<LineSession<Socket>> session;
  std::string received;              // bytes read from the session, up to a line's end
  std::vector<std::string> written;  // the reply lines read so far
};

// A pipelining client gets the first replies while the rest of its lines wait
// their turn: it can send more meanwhile, and other clients are served between.
TEST_F(SessionOnSocketPair, RepliesOfALongReadGoOutBeforeItsLastLineIsServed) {
  constexpr int kRequests = 200;  // about 9 KiB of lines: one read; 30 KiB of replies
  send_requests(kRequests);
  session->start();
  while (handler.calls == 0) io.run_one();
  EXPECT_LT(handler.calls, kRequests) << "the whole read was served in one turn";
  EXPECT_FALSE(written_lines().empty()) << "the first turn's replies were not written at its end";

  while (handler.calls < kRequests) io.run_one();
  io.poll();  // the last write's completion
  const auto replies = written_lines();
  ASSERT_EQ(replies.size(), static_cast<std::size_t>(kRequests));
  for (int id = 0; id < kRequests; ++id) {
    const json reply = json::parse(replies[id]);
    ASSERT_EQ(reply["id"], id) << "replies out of order";
    ASSERT_EQ(reply["result"]["padding"].get<std::string>().size(), 100u);
  }
}

// Lines whose replies fit one turn are all served in it and answered together.
TEST_F(SessionOnSocketPair, AShortReadIsServedInOneTurn) {
  send_requests(3);
  session->start();
  while (handler.calls == 0) io.run_one();
  EXPECT_EQ(handler.calls, 3);
  EXPECT_EQ(written_lines().size(), 3u);
}

// Between reads the session waits in `reading`; a read's lines are served and
// it reads again.
TEST_F(SessionOnSocketPair, ReadsServesAndReadsAgain) {
  using Phase = LineSession<Socket>::Phase;
  session->start();
  EXPECT_EQ(session->phase(), Phase::reading);
  send_requests(2);
  while (handler.calls < 2) io.run_one();
  EXPECT_EQ(session->phase(), Phase::reading);
  io.poll();
  EXPECT_EQ(written_lines().size(), 2u);
}

// A client that ends its input still gets the replies to its last lines, the
// one without a newline too; then the session closes.
TEST_F(SessionOnSocketPair, DrainsTheRepliesOfAClientThatEndedItsInputThenCloses) {
  using Phase = LineSession<Socket>::Phase;
  bool closed = false;
  SessionLimits limits;
  limits.max_line_bytes = 4096;
  limits.queue_bytes = 1 << 20;
  Socket mine{io}, peer{io};
  boost::asio::local::connect_pair(mine, peer);
  auto ending = std::make_shared<LineSession<Socket>>(std::move(mine), engine, limits, "peer", "unix",
                                                      [&closed](Session&) { closed = true; });
  boost::asio::write(peer, boost::asio::buffer(std::string(R"({"jsonrpc":"2.0","id":1,"method":"m"})"
                                                           "\n"
                                                           R"({"jsonrpc":"2.0","id":2,"method":"m"})")));
  peer.shutdown(Socket::shutdown_send);
  ending->start();
  while (!closed) io.run_one();
  EXPECT_EQ(ending->phase(), Phase::closed);
  EXPECT_EQ(handler.calls, 2);
  std::string replies(4096, '\0');
  boost::system::error_code ec;
  replies.resize(boost::asio::read(peer, boost::asio::buffer(replies), ec));
  EXPECT_EQ(ec, boost::asio::error::eof);
  EXPECT_NE(replies.find(R"("id":2)"), std::string::npos) << replies;
}

// A client that sends more than it reads: once half the queue bound waits
// unread the session pauses (its socket is not read), and serves the rest as
// the client reads.
TEST_F(SessionOnSocketPair, PausesWhileItsRepliesAreUnreadAndServesOnWhenTheyAreRead) {
  using Phase = LineSession<Socket>::Phase;
  SessionLimits limits;
  limits.max_line_bytes = 4096;
  limits.queue_bytes = 4096;  // pauses at 2 KiB unread
  Socket mine{io}, peer{io};
  boost::asio::local::connect_pair(mine, peer);
  mine.set_option(boost::asio::socket_base::send_buffer_size(4096));  // the kernel's minimum: fills at once
  auto slow = std::make_shared<LineSession<Socket>>(std::move(mine), engine, limits, "peer", "unix", [](Session&) {});
  constexpr int kRequests = 300;  // 40 KiB of replies: far more than the socket and the bound hold
  boost::asio::write(peer, boost::asio::buffer(request_lines(kRequests)));
  slow->start();
  while (slow->phase() != Phase::paused) io.run_one();
  EXPECT_LT(handler.calls, kRequests);

  // Every reply whole, once and in order: the write a resumed turn starts is the only one on the wire.
  peer.non_blocking(true);
  std::string received;
  std::array<char, 4096> chunk;
  while (std::count(received.begin(), received.end(), '\n') < kRequests) {
    io.poll();
    boost::system::error_code ec;
    received.append(chunk.data(), peer.read_some(boost::asio::buffer(chunk), ec));
  }
  EXPECT_EQ(handler.calls, kRequests);
  std::istringstream replies(received);
  std::string line;
  for (int id = 0; std::getline(replies, line); ++id) {
    const json reply = json::parse(line, nullptr, false);
    ASSERT_FALSE(reply.is_discarded()) << "reply " << id << " is not JSON: " << line.substr(0, 200);
    ASSERT_EQ(reply["id"], id);
  }
  EXPECT_EQ(slow->phase(), Phase::reading);
}

// A write that fails (the client is gone) closes the session and says why.
TEST_F(SessionOnSocketPair, AFailedWriteClosesTheSession) {
  using Phase = LineSession<Socket>::Phase;
  session->start();
  send_requests(1);
  theirs.close();
  while (session->phase() != Phase::closed) io.run_one();
  EXPECT_EQ(handler.calls, 1);
  EXPECT_EQ(session->write_error(), boost::asio::error::broken_pipe);
}

}  // namespace
}  // namespace mcpud::transports
