// SPDX-License-Identifier: MIT
// Unit tests of an HTTP connection's phases (http_server.cpp): the server on
// a loopback port, an engine over a scripted method handler, a client socket
// of the test's own, the event loop stepped by hand. No daemon.
#include "mcpud/http/http_server.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <regex>
#include <string>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include "mcpud/core/call_cancellation.hpp"

namespace mcpud::http {
namespace {

using boost::asio::ip::tcp;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kModern = "2026-07-28";

// initialize answers; "slow" and subscriptions/listen wait until the test
// answers them (a listen notifies first), noting a cancellation; the rest answer at once.
class HeldMethods final : public rpc::MethodHandler {
 public:
  void handle(rpc::Client& client, std::string_view method, json&&, ToolReply&& reply) override {
    if (method == "initialize") {
      return reply(json{{"protocolVersion", "2025-11-25"},
                        {"capabilities", json::object()},
                        {"serverInfo", {{"name", "test"}, {"version", "1"}}}});
    }
    if (method == "slow" || method == "subscriptions/listen") {
      if (method == "subscriptions/listen") client.notify("notifications/subscriptions/acknowledged", json::object());
      held = std::make_shared<ToolReply>(std::move(reply));
      if (auto* cancellation = CallCancellation::current()) {
        cancellation->on_cancel([this] {
          ++cancelled;
          (*held)(json::object());
        });
      }
      return;
    }
    reply(json{{"resultType", "complete"}, {"ok", true}});
  }
  std::shared_ptr<ToolReply> held;
  int cancelled = 0;
};

HttpOptions options() {
  HttpOptions o;
  o.listen = "127.0.0.1:0";
  o.protocol_versions = {"2025-03-26", "2025-06-18", "2025-11-25"};
  o.modern_protocol_versions = {kModern};
  o.max_sessions = 8;
  o.max_sessions_per_address = 8;
  o.max_connections = 8;
  o.max_connections_per_address = 8;
  o.max_body_bytes = 64 * 1024;
  o.queue_bytes = 64 * 1024;
  return o;
}

std::string post(const std::string& body, const std::string& headers = "") {
  return "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\n" +
         headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

class HttpConnectionPhases : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server.open());
    const auto address = server.local_address();
    port = static_cast<unsigned short>(std::stoi(address.substr(address.rfind(':') + 1)));
  }

  // A client connection of its own, blocking for writes, read without blocking.
  tcp::socket connect() {
    tcp::socket socket(client_io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    socket.non_blocking(true);
    return socket;
  }

  // Steps the server until `done(received)` or the deadline; what the client
  // read is appended to `received`, and `eof` says whether the server closed.
  bool step_until(tcp::socket& socket, std::string& received, const std::function<bool()>& done, bool* eof = nullptr) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      io.run_one_for(10ms);
      std::array<char, 4096> chunk;
      boost::system::error_code ec;
      const auto n = socket.read_some(boost::asio::buffer(chunk), ec);
      received.append(chunk.data(), n);
      if (ec == boost::asio::error::eof && eof) *eof = true;
    }
    return true;
  }

  static std::size_t count(const std::string& text, const std::string& what) {
    std::size_t found = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
    return found;
  }

  // A connection whose POST of "slow" in a new session waits for its answer.
  tcp::socket with_a_call_pending(int id) {
    const auto session = initialize();
    auto socket = connect();
    const auto call = json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "slow"}}.dump();
    boost::asio::write(socket, boost::asio::buffer(post(call, "Mcp-Session-Id: " + session + "\r\n")));
    std::string received;
    EXPECT_TRUE(step_until(socket, received, [&] { return methods.held != nullptr; }));
    EXPECT_TRUE(received.empty()) << received;
    return socket;
  }

  // Opens an MCP session and gives its id.
  std::string initialize() {
    auto socket = connect();
    boost::asio::write(socket, boost::asio::buffer(post(R"({"jsonrpc":"2.0","id":1,"method":"initialize"})")));
    std::string received;
    EXPECT_TRUE(step_until(socket, received, [&] { return received.find("\r\n\r\n{") != std::string::npos; }));
    std::smatch id;
    EXPECT_TRUE(std::regex_search(received, id, std::regex("Mcp-Session-Id: ([^\r]+)"))) << received;
    return id[1];
  }

  boost::asio::io_context io;
  boost::asio::io_context client_io;
  HeldMethods methods;
  rpc::Engine engine{methods};
  HttpServer server{io, options(), engine};
  unsigned short port = 0;
};

// reading -> responding -> reading: a kept-alive connection answers the next
// request too, and stays open.
TEST_F(HttpConnectionPhases, AnsweredRequestsLeaveTheConnectionReadingTheNext) {
  auto socket = connect();
  boost::asio::write(socket, boost::asio::buffer(post(R"({"jsonrpc":"2.0","id":1,"method":"initialize"})")));
  std::string received;
  bool eof = false;
  ASSERT_TRUE(step_until(
      socket, received, [&] { return received.find("serverInfo") != std::string::npos; }, &eof));
  std::smatch id;
  ASSERT_TRUE(std::regex_search(received, id, std::regex("Mcp-Session-Id: ([^\r]+)"))) << received;
  boost::asio::write(socket, boost::asio::buffer(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})",
                                                      "Mcp-Session-Id: " + id[1].str() + "\r\n")));
  ASSERT_TRUE(step_until(
      socket, received, [&] { return received.find(R"("ok":true)") != std::string::npos; }, &eof))
      << received;
  EXPECT_EQ(count(received, "HTTP/1.1 200"), 2u);
  EXPECT_FALSE(eof);
}

// answering -> closed: a client that leaves while its call waits cancels the
// call, which answers into a closed connection.
TEST_F(HttpConnectionPhases, AClientThatLeavesWhileItsCallIsPendingCancelsIt) {
  auto socket = with_a_call_pending(2);
  std::string received;
  socket.close();
  ASSERT_TRUE(step_until(socket, received, [&] { return methods.cancelled == 1; }));
  EXPECT_TRUE(received.empty()) << "nothing was due to a client that left";
}

// answering -> responding: the call that waited answers, and the response goes out.
TEST_F(HttpConnectionPhases, ACallThatAnswersLaterIsResponded) {
  auto socket = with_a_call_pending(3);
  std::string received;
  (*methods.held)(json{{"late", true}});
  ASSERT_TRUE(step_until(socket, received, [&] { return received.find(R"("late":true)") != std::string::npos; }));
  EXPECT_EQ(methods.cancelled, 0);
}

// reading -> streaming -> closed: GET /mcp is the session's event stream; it
// ends when the session does.
TEST_F(HttpConnectionPhases, ASessionsStreamClosesWhenTheSessionEnds) {
  const auto session = initialize();
  auto stream = connect();
  boost::asio::write(stream, boost::asio::buffer("GET /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                                                 "Mcp-Session-Id: " +
                                                 session + "\r\n\r\n"));
  std::string events;
  ASSERT_TRUE(step_until(stream, events, [&] { return events.find("text/event-stream") != std::string::npos; }));
  auto other = connect();
  boost::asio::write(
      other, boost::asio::buffer("DELETE /mcp HTTP/1.1\r\nHost: localhost\r\nMcp-Session-Id: " + session + "\r\n\r\n"));
  bool eof = false;
  ASSERT_TRUE(step_until(
      stream, events, [&] { return eof; }, &eof))
      << events;
}

// answering -> streaming -> ending -> closed: a 2026-07-28 listen streams its
// events and, when it is answered, its last one, then the connection closes.
TEST_F(HttpConnectionPhases, AListenStreamsThenEndsWithItsAnswer) {
  json listen = {{"jsonrpc", "2.0"}, {"id", 9}, {"method", "subscriptions/listen"}};
  listen["params"]["_meta"] = {{"io.modelcontextprotocol/protocolVersion", kModern},
                               {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  auto socket = connect();
  boost::asio::write(socket, boost::asio::buffer(post(listen.dump(), "MCP-Protocol-Version: " + std::string(kModern) +
                                                                         "\r\nMcp-Method: subscriptions/listen\r\n")));
  std::string received;
  bool eof = false;
  ASSERT_TRUE(step_until(
      socket, received, [&] { return received.find("acknowledged") != std::string::npos; }, &eof))
      << received;
  EXPECT_NE(received.find("Content-Type: text/event-stream"), std::string::npos) << received;
  EXPECT_FALSE(eof);
  (*methods.held)(json{{"resultType", "complete"}});
  ASSERT_TRUE(step_until(
      socket, received, [&] { return eof; }, &eof))
      << received;
  EXPECT_NE(received.find(R"("id":9,"result")"), std::string::npos) << "the answer is the stream's last event";
}

}  // namespace
}  // namespace mcpud::http
