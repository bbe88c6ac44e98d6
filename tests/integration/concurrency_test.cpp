// SPDX-License-Identifier: MIT
// Several TCP clients at once: replies go to the right client and max_clients
// holds (reply_limits_test: clients that stop reading).
#include <sys/socket.h>

#include <atomic>
#include <thread>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using Concurrency = SimDaemonTest;

TEST_F(Concurrency, TwoClientsInterleavingRequestsEachGetTheirOwnReplies) {
  auto other = connect();
  ASSERT_TRUE(other);
  constexpr int kRequests = 50;
  // Alternate writes on the two connections before reading anything back.
  for (int i = 0; i < kRequests; ++i) {
    ASSERT_TRUE(client().send_line(request_text("gpio_read", {{"pin", 2}}, "a-" + std::to_string(i))));
    ASSERT_TRUE(other->send_line(request_text("adc_read", {{"pin", 34}}, "b-" + std::to_string(i))));
  }
  for (int i = 0; i < kRequests; ++i) {
    const json a = json::parse(client().read_line().value_or("null"));
    EXPECT_EQ(a["id"], "a-" + std::to_string(i));
    EXPECT_EQ(a["result"]["name"], "led");
    const json b = json::parse(other->read_line().value_or("null"));
    EXPECT_EQ(b["id"], "b-" + std::to_string(i));
    EXPECT_EQ(b["result"]["name"], "light");
  }
}

// A batch is served in slices with other clients' lines between them: one
// client's batch of a thousand slow calls does not hold up another's request.
TEST_F(Concurrency, AnotherClientIsServedWhileALongBatchIsInProgress) {
  auto other = connect();
  ASSERT_TRUE(other);
  std::string batch = "[";
  for (int i = 0; i < 1000; ++i) {
    batch += (i ? "," : "") + request_text("tools/list", json::object(), i);
  }
  batch += "]";
  ASSERT_TRUE(client().send_line(batch));
  ASSERT_TRUE(other->send_line(request_text("gpio_read", {{"pin", 2}}, "quick")));
  const json quick = json::parse(other->read_line(30s).value_or("null"));
  EXPECT_EQ(quick["id"], "quick");
  EXPECT_TRUE(client().silent_for(0ms)) << "the batch was done before the other client's request was served";
  const json answered = json::parse(client().read_line(30s).value_or("null"));
  ASSERT_TRUE(answered.is_array());
  EXPECT_EQ(answered.size(), 1000u);
}

TEST_F(Concurrency, TwoClientsOnTwoThreadsNeverSeeEachOthersReplies) {
  auto other = connect();
  ASSERT_TRUE(other);
  std::atomic<int> mismatches{0};
  const auto hammer = [&mismatches](LineClient& c, const std::string& prefix) {
    for (int i = 0; i < 200; ++i) {
      const std::string id = prefix + std::to_string(i);
      const json reply = c.call("gpio_read", {{"pin", 3}}, id);
      if (reply.value("id", json()) != id || !reply.contains("result")) ++mismatches;
    }
  };
  std::thread first([&] { hammer(client(), "first-"); });
  std::thread second([&] { hammer(*other, "second-"); });
  first.join();
  second.join();
  EXPECT_EQ(mismatches, 0);
}

TEST(ConcurrencyLimits, ThirdClientOverMaxClientsTwoGetsTooManyClientsAndIsClosed) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.limits = "max_clients = 2"}));
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0);
  auto first = LineClient::connect_tcp(port);
  auto second = LineClient::connect_tcp(port);
  ASSERT_TRUE(first && second);
  // Both are served (and so counted) before the third arrives.
  ASSERT_EQ(first->result("get_info")["device"], "mcpud-sim");
  ASSERT_EQ(second->result("get_info")["device"], "mcpud-sim");

  auto third = LineClient::connect_tcp(port);
  ASSERT_TRUE(third);
  const auto refusal = third->read_line();
  ASSERT_TRUE(refusal) << "the refused client got no explanation";
  const json expected = json::parse(R"json({"jsonrpc":"2.0","id":null,"error":{
      "code":-32041,"message":"Too many clients (limit 2, [limits] max_clients)","data":{"code":"TOO_MANY_CLIENTS"}}})json");
  EXPECT_EQ(json::parse(*refusal, nullptr, false), expected);
  EXPECT_TRUE(third->wait_closed()) << "the refused connection stays open";
  EXPECT_TRUE(daemon.wait_for_log("refused: Too many clients (limit 2"));

  // The first two are unaffected; when one leaves, a newcomer gets its place.
  EXPECT_EQ(second->result("gpio_read", {{"pin", 2}})["name"], "led");
  first->close();
  bool admitted = false;
  ASSERT_TRUE(eventually(
      [&] {
        auto next = LineClient::connect_tcp(port);
        if (!next) return false;
        const json reply = next->call("get_info", json::object(), 1);
        admitted = reply.contains("result");
        return admitted;
      },
      10s, 100ms))
      << "no client admitted after one of two left";
  EXPECT_EQ(second->result("get_info")["device"], "mcpud-sim");
}

TEST_F(Concurrency, ClientsThatVanishWithRepliesPendingDoNotDisturbTheOthers) {
  std::string burst;
  for (int i = 0; i < 100; ++i) burst += request_text("list_tools", json::object(), i) + "\n";
  for (int round = 0; round < 20; ++round) {
    auto vanishing = connect();
    ASSERT_TRUE(vanishing);
    ASSERT_TRUE(vanishing->send_raw(burst));
    if (round % 2 == 0) {
      // An abortive close (RST) while the daemon is still writing replies.
      const linger abort_on_close{1, 0};
      ::setsockopt(vanishing->fd(), SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    }
    vanishing->close();
    const json info = client().call("get_info", json::object(), round);
    ASSERT_EQ(info["id"], round) << info.dump();
    ASSERT_EQ(info["result"]["device"], "mcpud-sim");
  }
  EXPECT_TRUE(daemon_.running());
}

}  // namespace
}  // namespace mcpud::it
