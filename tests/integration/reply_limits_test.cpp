// SPDX-License-Identifier: MIT
// What bounds a client's replies and its connection, through the real binary:
// one line's reply (a batch's together) never passes client_queue_bytes, a
// client that does not read is held back and, when it keeps being pushed to,
// dropped; silent TCP clients are closed; one address cannot take every slot.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <thread>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

constexpr int kReplyTooLarge = -32042;

// "127.0.0.1:PORT" of the client's end, as the daemon names the peer.
std::string local_address(const LineClient& client) {
  sockaddr_in address{};
  socklen_t size = sizeof address;
  ::getsockname(client.fd(), reinterpret_cast<sockaddr*>(&address), &size);
  return "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
}

// A daemon on the simulated board with these [limits] lines, and its port.
struct LimitedDaemon {
  explicit LimitedDaemon(const std::string& limits) {
    const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.limits = limits}));
    port = daemon.start_tcp({"--config", config});
  }
  std::optional<LineClient> connect(Deadline deadline = 5s, int receive_buffer = 0) const {
    return LineClient::connect_tcp(port, deadline, receive_buffer);
  }
  DaemonProcess daemon;
  int port = 0;
};

TEST(ReplyLimits, BatchPastTheBudgetAnswersEveryCallAndSaysWhichRanWithoutTheirResult) {
  LimitedDaemon limited("client_queue_bytes = 65536");
  ASSERT_NE(limited.port, 0);
  auto client = limited.connect();
  ASSERT_TRUE(client);
  json batch = json::array({json::parse(request_text("gpio_write", {{"pin", 2}, {"value", true}}, "write"))});
  for (int i = 0; i < 40; ++i) batch.push_back(json::parse(request_text("list_tools", json::object(), i)));
  ASSERT_TRUE(client->send_line(batch.dump()));
  const auto line = client->read_line(10s);
  ASSERT_TRUE(line) << "a batch whose replies pass the budget got no reply at all";
  EXPECT_LE(line->size(), 65536u + 40 * 400) << "the reply passed the budget";
  const json replies = json::parse(*line);
  ASSERT_EQ(replies.size(), 41u) << "every request of the batch is answered";
  int listed = 0;
  int refused = 0;
  for (const auto& reply : replies) {
    if (reply["id"] == "write") {
      EXPECT_TRUE(reply.contains("result")) << reply.dump();
    } else if (reply.contains("result")) {
      ++listed;
    } else {
      ++refused;
      EXPECT_TRUE(is_error(reply, kReplyTooLarge, "REPLY_TOO_LARGE")) << reply.dump();
      EXPECT_NE(reply["error"]["message"].get<std::string>().find("the call itself was carried out"),
                std::string::npos);
    }
  }
  EXPECT_GT(listed, 0) << "what fits is still answered in full";
  EXPECT_GT(refused, 0);
  // The connection stays, and the write in the batch did happen.
  EXPECT_EQ(client->result("gpio_read", {{"pin", 2}})["value"], true);
}

TEST(ReplyLimits, OneReplyLargerThanTheQueueIsAnErrorAndTheClientStays) {
  LimitedDaemon limited("client_queue_bytes = 4096");
  ASSERT_NE(limited.port, 0);
  auto client = limited.connect();
  ASSERT_TRUE(client);
  const json reply = client->call("list_tools", json::object(), 7);
  EXPECT_TRUE(is_error(reply, kReplyTooLarge, "REPLY_TOO_LARGE")) << reply.dump();
  EXPECT_EQ(reply["id"], 7);
  EXPECT_EQ(client->result("get_info")["device"], "mcpud-sim");
  EXPECT_EQ(limited.daemon.count_in_log("dropped"), 0u);
}

TEST(ReplyLimits, ClientThatSendsButNeverReadsIsHeldBackAndTheOthersAreServed) {
  LimitedDaemon limited("client_queue_bytes = 65536\nidle_timeout_s = 2");
  ASSERT_NE(limited.port, 0);
  auto reader = limited.connect();
  auto sluggard = limited.connect(5s, /*receive_buffer=*/4096);
  ASSERT_TRUE(reader && sluggard);
  std::string burst;
  for (int i = 0; i < 50; ++i) burst += request_text("list_tools", json::object(), i) + "\n";
  // The daemon stops reading a client with half its queue unread, so the
  // sluggard's sends block once the socket buffers are full.
  bool held_back = false;
  for (int round = 0; round < 2000 && !held_back; ++round) {
    held_back = !sluggard->send_raw(burst, 300ms);
    ASSERT_EQ(reader->call("get_info", json::object(), round)["id"], round);
  }
  EXPECT_TRUE(held_back) << "the daemon kept reading a client that reads nothing";
  EXPECT_EQ(reader->result("gpio_read", {{"pin", 2}})["name"], "led");
  EXPECT_EQ(limited.daemon.count_in_log("dropped"), 0u) << "a client that is held back need not be dropped";
  // Held back, nothing it sent or was sent moves: the idle timeout frees its
  // slot. (Reading now would let it go on: the daemon serves what it holds.)
  EXPECT_TRUE(limited.daemon.wait_for_log(local_address(*sluggard) + ": closed: silent for 2 s", 15s));
}

// A client that pipelines more than it reads: the daemon pauses and resumes
// serving it many times over, and every reply arrives whole, once, in order.
TEST(ReplyLimits, AClientThatReadsSlowlyGetsEveryReplyWholeOnceAndInOrder) {
  LimitedDaemon limited("client_queue_bytes = 8192");
  ASSERT_NE(limited.port, 0);
  auto client = limited.connect(5s, /*receive_buffer=*/4096);
  ASSERT_TRUE(client);
  constexpr int kRequests = 4000;
  std::string requests;
  for (int id = 0; id < kRequests; ++id) requests += request_text("gpio_read", {{"pin", 2}}, id) + "\n";
  std::thread sender([&] { EXPECT_TRUE(client->send_raw(requests, 60s)); });
  for (int id = 0; id < kRequests; ++id) {
    if (id % 200 == 0) std::this_thread::sleep_for(20ms);  // now and then the replies back up
    const auto line = client->read_line(20s);
    ASSERT_TRUE(line) << "reply " << id << " never came";
    const json reply = json::parse(*line, nullptr, false);
    ASSERT_FALSE(reply.is_discarded()) << "reply " << id << " is not JSON: " << line->substr(0, 200);
    ASSERT_EQ(reply["id"], id) << "a reply twice or out of order";
  }
  sender.join();
  EXPECT_TRUE(client->silent_for(300ms)) << "more replies than requests";
}

TEST(ReplyLimits, ClientThatNeverReadsItsNotificationsIsDropped) {
  LimitedDaemon limited("client_queue_bytes = 4096");
  ASSERT_NE(limited.port, 0);
  auto reader = limited.connect();
  auto sluggard = limited.connect(5s, /*receive_buffer=*/4096);
  ASSERT_TRUE(reader && sluggard);
  ASSERT_TRUE(sluggard->result("subscribe", {{"uris", {"mcpu://daemon/activity"}}}).contains("subscribed"));
  const Deadline deadline(30s);
  for (int i = 0; limited.daemon.count_in_log("dropped: not reading") == 0 && !deadline.expired(); ++i) {
    ASSERT_EQ(reader->call("gpio_write", {{"pin", 2}, {"value", i % 2 == 0}}, i)["id"], i);
  }
  EXPECT_TRUE(limited.daemon.wait_for_log("dropped: not reading", 1s)) << "the non-reader was never dropped";
  EXPECT_TRUE(limited.daemon.wait_for_log("[limits] client_queue_bytes = 4096", 1s));
  EXPECT_TRUE(sluggard->wait_closed(10s));
  EXPECT_EQ(reader->result("get_info")["device"], "mcpud-sim");
}

TEST(ConnectionLimits, SilentClientIsClosedOneThatPingsOrWaitsForACallStays) {
  LimitedDaemon limited("idle_timeout_s = 2");
  ASSERT_NE(limited.port, 0);
  auto silent = limited.connect();
  auto pinger = limited.connect();
  ASSERT_TRUE(silent && pinger);
  ASSERT_EQ(silent->result("get_info")["device"], "mcpud-sim");
  // The pinger talks every 250 ms (well inside the timeout even on a loaded
  // machine) for as long as the silent client is still there.
  const Deadline deadline(8s);
  bool silent_closed = false;
  for (int i = 0; !silent_closed && !deadline.expired(); ++i) {
    ASSERT_EQ(pinger->call("ping", json::object(), i)["id"], i) << "a client that talks was closed";
    silent_closed = silent->wait_closed(250ms);
  }
  EXPECT_TRUE(silent_closed) << "a client silent for the idle timeout stayed connected";
  EXPECT_EQ(pinger->call("ping", json::object(), "last")["id"], "last") << "the talking client was closed too";
  EXPECT_TRUE(limited.daemon.wait_for_log("closed: silent for 2 s ([limits] idle_timeout_s)"));
}

TEST(ConnectionLimits, OneAddressCannotTakeEverySlot) {
  LimitedDaemon limited("max_clients_per_address = 2");
  ASSERT_NE(limited.port, 0);
  auto first = limited.connect();
  auto second = limited.connect();
  ASSERT_TRUE(first && second);
  ASSERT_EQ(first->result("get_info")["device"], "mcpud-sim");
  ASSERT_EQ(second->result("get_info")["device"], "mcpud-sim");
  auto third = limited.connect();
  ASSERT_TRUE(third);
  const auto refusal = third->read_line();
  ASSERT_TRUE(refusal);
  const json error = json::parse(*refusal);
  EXPECT_TRUE(is_error(error, -32041, "TOO_MANY_CLIENTS")) << *refusal;
  EXPECT_EQ(error["error"]["message"], "Too many clients from 127.0.0.1 (limit 2, [limits] max_clients_per_address)");
  EXPECT_TRUE(third->wait_closed());
  EXPECT_EQ(second->result("get_info")["device"], "mcpud-sim");
}

// MCP reserves -32020..-32099 (and 2026-07-28 forbids -32042): an MCP client
// gets REPLY_TOO_LARGE as -31042 in either era, an MCP/U client on the same
// connection -32042, both with the same data.code.
TEST(ReplyLimits, AnMcpClientGetsTheErrorOutsideTheCodesMcpReserves) {
  LimitedDaemon limited("client_queue_bytes = 4096");
  ASSERT_NE(limited.port, 0);
  auto client = limited.connect();
  ASSERT_TRUE(client);
  EXPECT_TRUE(is_error(client->call("tools/list", json::object(), 1), -31042, "REPLY_TOO_LARGE"));
  const json modern = {{"_meta",
                        {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                         {"io.modelcontextprotocol/clientCapabilities", json::object()}}}};
  const json reply = client->call("tools/list", modern, 2);
  EXPECT_TRUE(is_error(reply, -31042, "REPLY_TOO_LARGE")) << reply.dump();
  EXPECT_TRUE(is_error(client->call("list_tools", json::object(), 3), kReplyTooLarge, "REPLY_TOO_LARGE"));
}

// A client refused before it spoke gets its door's numbering: the unix
// socket's clients are MCP hosts (mcpud-stdio), TCP's MCP/U clients.
TEST(ConnectionLimits, TheUnixSocketRefusesInMcpsNumbering) {
  DaemonProcess daemon;
  const auto socket = (daemon.temp_dir().path() / "mcpud.sock").string();
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.limits = "max_clients = 1"}));
  ASSERT_NE(daemon.start_tcp({"--config", config, "--unix", socket}), 0);
  ASSERT_TRUE(daemon.wait_for_log("listening on " + socket));
  auto first = LineClient::connect_unix(socket);
  ASSERT_TRUE(first);
  ASSERT_EQ(first->result("get_info")["device"], "mcpud-sim");
  auto second = LineClient::connect_unix(socket);
  ASSERT_TRUE(second);
  const auto refusal = second->read_line();
  ASSERT_TRUE(refusal);
  EXPECT_TRUE(is_error(json::parse(*refusal), -31041, "TOO_MANY_CLIENTS")) << *refusal;
  EXPECT_TRUE(second->wait_closed());
}

}  // namespace
}  // namespace mcpud::it
