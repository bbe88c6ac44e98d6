// SPDX-License-Identifier: MIT
// The bridge on a real event loop against an in-process MCP/U peer over
// loopback TCP: polled results reach the EventHub as ToolPolled, and the
// device's tools come and go with its connection.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include "mcpud/bridge/bridge_config.hpp"
#include "mcpud/bridge/bridge_set.hpp"
#include "mcpud/core/schema.hpp"

namespace mcpud::bridge {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using nlohmann::json;

// A [[bridges]] entry over TCP as the daemon reads it: checked by the schema,
// defaults filled in but a short replug grace period.
BridgeConfig bridge_over_tcp(const std::string& id, const std::string& address) {
  json schema = {{"type", "object"}, {"properties", json::object()}};
  add_bridges_schema(schema);
  json document = {{"bridges", {{{"id", id}, {"tcp", address}, {"replug_grace_ms", 200}}}}};
  const auto valid = schema::validate(schema, document, "");
  EXPECT_TRUE(valid) << valid.error();
  auto bridges = parse_bridges(document);
  EXPECT_TRUE(bridges) << bridges.error();
  return bridges->front();
}

// Answers get_info, list_tools (one tool polled every 50 ms) and "tick".
class Peer {
 public:
  explicit Peer(asio::io_context& io)
      : acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)), socket_(io) {
    acceptor_.async_accept(socket_, [this](boost::system::error_code ec) {
      if (!ec) read();
    });
  }
  int port() const { return acceptor_.local_endpoint().port(); }
  void unplug() {
    boost::system::error_code ignored;
    socket_.close(ignored);
    acceptor_.close(ignored);
  }

 private:
  void read() {
    asio::async_read_until(socket_, input_, '\n', [this](boost::system::error_code ec, std::size_t n) {
      if (ec) return;
      std::string line(asio::buffers_begin(input_.data()),
                       asio::buffers_begin(input_.data()) + static_cast<std::ptrdiff_t>(n));
      input_.consume(n);
      answer(json::parse(line));
      read();
    });
  }
  void answer(const json& request) {
    json result;
    const auto method = request["method"].get<std::string>();
    if (method == "get_info") result = {{"device", "peer"}, {"memory_profile", "rich"}};
    if (method == "list_tools") {
      result = {
          {"tools",
           {{{"name", "tick"}, {"description", "Counts"}, {"polling", {{"enabled", true}, {"interval_ms", 50}}}}}}};
    }
    if (method == "tick") result = {{"n", ++ticks_}};
    auto text = std::make_shared<std::string>(
        json{{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", result}}.dump() + "\r\n");
    asio::async_write(socket_, asio::buffer(*text), [text](boost::system::error_code, std::size_t) {});
  }

  tcp::acceptor acceptor_;
  tcp::socket socket_;
  asio::streambuf input_;
  int ticks_ = 0;
};

// Runs the loop until `done` holds or 10 s pass.
template <class Condition>
bool run_until(asio::io_context& io, Condition done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done() && std::chrono::steady_clock::now() < deadline) io.run_one_for(std::chrono::milliseconds(20));
  return done();
}

TEST(BridgeEvents, PolledResultsArePublishedAndToolsFollowTheConnection) {
  asio::io_context io;
  ToolRegistry registry;
  EventHub events;
  Peer peer(io);
  std::vector<Event> polled;
  int tools_changed = 0;
  registry.on_change([&] { ++tools_changed; });
  auto subscription = events.subscribe([&](const Event& e) {
    if (e.kind == EventKind::ToolPolled) polled.push_back(e);
  });
  BridgeSet bridges(io, registry, events);
  bridges.reconcile({bridge_over_tcp("dev", "127.0.0.1:" + std::to_string(peer.port()))});

  ASSERT_TRUE(run_until(io, [&] { return polled.size() >= 3; })) << "no ToolPolled events";
  EXPECT_EQ(polled[0].source, "dev__tick");
  EXPECT_EQ(polled[0].data, json({{"n", 1}}));
  EXPECT_EQ(polled[2].data, json({{"n", 3}}));
  ASSERT_NE(registry.find("dev__tick"), nullptr);
  EXPECT_EQ(registry.find("dev__tick")->annotations.polling_interval_ms, 50u);
  EXPECT_EQ(tools_changed, 1) << "one change for the whole device";

  peer.unplug();
  ASSERT_TRUE(run_until(io, [&] { return registry.find("dev__tick") == nullptr; }))
      << "tools stayed after the peer left and its grace period ended";
  EXPECT_EQ(tools_changed, 2);
  bridges.stop_all();
}

}  // namespace
}  // namespace mcpud::bridge
