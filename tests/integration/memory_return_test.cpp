// SPDX-License-Identifier: MIT
// Memory after a burst, through the real binary: once a crowd of clients has
// sent its batches and left, mcpud's resident memory comes back near where it
// was (the heap's free pages are given back), and the idle daemon is not woken
// to do it again.
#include <string>
#include <thread>
#include <vector>

#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

constexpr int kClients = 100;
constexpr int kBatch = 400;  // list_tools requests in each client's batch

// One output pin and nothing sampled: no timer of its own wakes this daemon.
constexpr const char* kQuietConfig = R"(device = "burst"
board = "sim"
listen = ["127.0.0.1:0"]
[limits]
max_clients_per_address = 128
[[pins]]
name = "led"
pin = 2
type = "digital_output"
)";

std::string list_tools_batch() {
  json batch = json::array();
  for (int i = 0; i < kBatch; ++i) batch.push_back(json::parse(request_text("list_tools", json::object(), i)));
  return batch.dump();
}

// kClients clients, each sending one batch and reading its reply; all still connected.
std::vector<LineClient> burst(int port) {
  const auto batch = list_tools_batch();
  std::vector<LineClient> clients;
  for (int i = 0; i < kClients; ++i) {
    auto client = LineClient::connect_tcp(port);
    if (!client) break;
    client->send_line(batch);
    clients.push_back(std::move(*client));
  }
  for (auto& client : clients) EXPECT_TRUE(client.read_line(30s)) << "a batch got no reply";
  return clients;
}

TEST(MemoryReturn, RssComesBackAfterABurstOfClientsAndTheIdleDaemonStaysAsleep) {
#if defined(__SANITIZE_ADDRESS__)
  // Under AddressSanitizer the heap is ASan's (freed blocks wait in its
  // quarantine), so glibc's malloc_trim has nothing to give back.
  GTEST_SKIP() << "measures glibc's heap; this build uses AddressSanitizer's allocator";
#endif
  DaemonProcess daemon;
  const auto port = daemon.start_tcp({"--config", daemon.write_file("mcpud.toml", kQuietConfig)});
  ASSERT_NE(port, 0);
  std::this_thread::sleep_for(1s);  // the readiness probe's connection is gone
  const long before = daemon.status_field("VmRSS");

  auto clients = burst(port);
  ASSERT_EQ(clients.size(), static_cast<std::size_t>(kClients));
  const long peak = daemon.status_field("VmRSS");
  ASSERT_GT(peak - before, 1024) << "the burst took less than 1 MiB: it tests nothing";
  clients.clear();

  // What the burst took is given back within a few seconds of the last client
  // leaving; the pages its code touched and what the clients left behind stay.
  const long bound = before + (peak - before) / 4;
  long after = peak;
  EXPECT_TRUE(eventually([&] { return (after = daemon.status_field("VmRSS")) <= bound; }, 10s, 200ms))
      << "RSS " << before << " kB before the burst, " << peak << " kB with it, still " << after
      << " kB after it (bound " << bound << " kB)";

  // The trim happened once; nothing keeps waking the daemon now that no one is connected.
  std::this_thread::sleep_for(2s);
  const long switches = daemon.status_field("voluntary_ctxt_switches");
  std::this_thread::sleep_for(3s);
  EXPECT_EQ(daemon.status_field("voluntary_ctxt_switches"), switches) << "the idle daemon woke up";
}

}  // namespace
}  // namespace mcpud::it
