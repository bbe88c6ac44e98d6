// SPDX-License-Identifier: MIT
// McuLink over a scripted stream on a real event loop: what a call answers when
// the device's reply is longer than the line limit, arriving whole, still
// arriving at the deadline, or among several calls.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "mcu_link.hpp"

namespace mcpud::bridge {
namespace {

namespace asio = boost::asio;

// The device's side of a link: what the test pushes is read by the link; what
// the link writes is kept.
class ScriptedStream final : public LinkStream {
 public:
  explicit ScriptedStream(asio::io_context& io) : io_(io) {}

  void push(std::string bytes) {
    pending_ += bytes;
    deliver();
  }
  const std::vector<std::string>& written() const { return written_; }

  void async_read_some(std::span<char> buffer, Handler handler) override {
    buffer_ = buffer;
    reader_ = std::move(handler);
    deliver();
  }
  void async_write(const std::string& data, Handler handler) override {
    written_.push_back(data);
    asio::post(io_, [handler = std::move(handler), n = data.size()] { handler({}, n); });
  }
  void close() override { reader_ = nullptr; }

 private:
  void deliver() {
    if (!reader_ || pending_.empty()) return;
    const std::size_t n = std::min(buffer_.size(), pending_.size());
    std::copy_n(pending_.data(), n, buffer_.data());
    pending_.erase(0, n);
    asio::post(io_, [handler = std::exchange(reader_, nullptr), n] { handler({}, n); });
  }

  asio::io_context& io_;
  std::string pending_;
  std::span<char> buffer_;
  Handler reader_;
  std::vector<std::string> written_;
};

struct Link {
  explicit Link(std::uint32_t timeout_ms, std::size_t max_line_bytes = 1000) {
    auto owned = std::make_unique<ScriptedStream>(io);
    stream = owned.get();
    link = std::make_shared<McuLink>(io, std::move(owned), LinkOptions{"uno", timeout_ms, 4, max_line_bytes},
                                     [](const Error&) {});
    link->start();
  }
  // The stream's pending read holds the link: dropping it ends that cycle
  // (the link's own close() would answer calls whose outcomes are gone).
  ~Link() { stream->close(); }
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;
  // Calls `method`; the outcome lands in `out` once it comes.
  void call(const std::string& method, std::optional<ToolResult>& out) {
    link->call(method, nlohmann::json(), [&out](ToolResult result) { out = std::move(result); });
  }
  bool run_until_answered(const std::optional<ToolResult>& out) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!out && std::chrono::steady_clock::now() < deadline) io.run_one_for(std::chrono::milliseconds(10));
    return out.has_value();
  }

  asio::io_context io;
  ScriptedStream* stream = nullptr;
  std::shared_ptr<McuLink> link;
};

std::string reply_line(std::int64_t id, std::size_t padding) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{"pad":")" + std::string(padding, 'x') +
         "\"}}\r\n";
}

TEST(BridgeLink, AReplyOverTheLineLimitFailsItsCallAtOnceGivingItsSize) {
  Link link(60'000);
  std::optional<ToolResult> out;
  link.call("list_tools", out);
  const std::string reply = reply_line(1, 3000);
  link.stream->push(reply);
  ASSERT_TRUE(link.run_until_answered(out)) << "the call waited for its deadline";
  ASSERT_FALSE(*out);
  EXPECT_EQ(out->error().name, "REPLY_TOO_LARGE");
  EXPECT_EQ(out->error().message, "uno: the device's reply is " + std::to_string(reply.size() - 2) +
                                      " bytes long, over the line limit of 1000 bytes")
      << "its length without the line end";

  std::optional<ToolResult> next;
  link.call("get_info", next);
  link.stream->push(reply_line(2, 10));
  ASSERT_TRUE(link.run_until_answered(next));
  EXPECT_TRUE(*next) << "the link reads on after the long line";
}

TEST(BridgeLink, AReplyStillArrivingAtTheDeadlineIsTooLargeByAtLeastWhatCame) {
  Link link(100);
  std::optional<ToolResult> out;
  link.call("list_tools", out);
  link.stream->push(std::string(R"({"jsonrpc":"2.0","id":1,"result":{"pad":")") + std::string(5000, 'x'));
  ASSERT_TRUE(link.run_until_answered(out));
  ASSERT_FALSE(*out);
  EXPECT_EQ(out->error().name, "REPLY_TOO_LARGE");
  EXPECT_EQ(out->error().message,
            "uno: the device's reply is at least 5041 bytes long, over the line limit of 1000 bytes");
}

TEST(BridgeLink, WithSeveralCallsInFlightTheirTimeoutsSayALongLineWasDropped) {
  Link link(100);
  std::optional<ToolResult> first;
  std::optional<ToolResult> second;
  link.call("a", first);
  link.call("b", second);
  const std::string reply = reply_line(1, 3000);
  link.stream->push(reply);
  ASSERT_TRUE(link.run_until_answered(first) && link.run_until_answered(second));
  for (const auto* out : {&first, &second}) {
    ASSERT_FALSE(**out);
    EXPECT_EQ((*out)->error().name, "TIMEOUT");
    EXPECT_EQ((*out)->error().message, "uno: no reply within 100 ms (meanwhile a line of " +
                                           std::to_string(reply.size() - 2) +
                                           " bytes, over the line limit of 1000 bytes, was dropped)");
  }
}

}  // namespace
}  // namespace mcpud::bridge
