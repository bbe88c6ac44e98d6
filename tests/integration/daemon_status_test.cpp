// SPDX-License-Identifier: MIT
// mcpu://daemon/status through the real mcpud: pushed to its subscribers when a
// client comes or goes (coalesced), silent for everyone else, and a retrying
// uplink saying when it dials next.
#include <chrono>
#include <functional>

#include <gtest/gtest.h>

#include "support/configs.hpp"
#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

using nlohmann::json;

constexpr const char* kStatusUri = "mcpu://daemon/status";

std::int64_t now_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The next status pushed to `client` (other lines are skipped); null if none comes in time.
json next_status(LineClient& client, Deadline deadline = 2s) {
  for (;;) {
    const auto line = client.read_line(deadline);
    if (!line) return nullptr;
    const json message = json::parse(*line, nullptr, false);
    if (message.value("method", "") == "notifications/resources/updated" &&
        message["params"].value("uri", "") == kStatusUri)
      return message["params"];
  }
}

// Statuses pushed until one satisfies `done` (returned); null if none does in time.
json status_until(LineClient& client, const std::function<bool(const json&)>& done, Deadline deadline = 2s) {
  for (;;) {
    json pushed = next_status(client, deadline);
    if (pushed.is_null() || done(pushed["data"])) return pushed;
  }
}

std::size_t tcp_clients(const json& status) {
  std::size_t n = 0;
  for (const auto& c : status.value("clients", json::array())) n += c["door"] == "tcp" ? 1 : 0;
  return n;
}

class DaemonStatus : public SimDaemonTest {};

TEST_F(DaemonStatus, IsPushedWhenAClientComesAndGoes) {
  EXPECT_EQ(client().result("resources/subscribe", {{"uri", kStatusUri}}), json::object());
  auto newcomer = connect();
  ASSERT_TRUE(newcomer);
  const auto connected_at = std::chrono::steady_clock::now();
  const json arrived = status_until(client(), [](const json& s) { return tcp_clients(s) == 2; });
  ASSERT_FALSE(arrived.is_null()) << "no status listing the new client was pushed";
  EXPECT_LT(std::chrono::steady_clock::now() - connected_at, 1s);
  EXPECT_EQ(arrived["event"], "status_changed");
  EXPECT_EQ(arrived["data"]["device"], "mcpud-sim");
  EXPECT_TRUE(arrived["data"].contains("uptime_s"));

  newcomer->close();
  EXPECT_FALSE(status_until(client(), [](const json& s) { return tcp_clients(s) == 1; }).is_null())
      << "no status without the client that left";
}

TEST_F(DaemonStatus, ABurstOfClientsIsCoalescedIntoFewPushes) {
  client().result("resources/subscribe", {{"uri", kStatusUri}});
  std::vector<LineClient> burst;
  for (int i = 0; i < 20; ++i) {
    auto c = connect();
    ASSERT_TRUE(c);
    burst.push_back(std::move(*c));
  }
  int pushes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t listed = 0; listed < 21; ++pushes) {
    const json pushed = next_status(client());
    ASSERT_FALSE(pushed.is_null()) << "the status never listed all 21 clients";
    listed = tcp_clients(pushed["data"]);
  }
  const auto took = std::chrono::steady_clock::now() - start;
  // At most one push per 250 ms (and one right away).
  EXPECT_LE(pushes, 2 + static_cast<int>(took / 250ms)) << pushes << " pushes in " << (took / 1ms) << " ms";
}

TEST_F(DaemonStatus, IsNotPushedToClientsThatDidNotSubscribe) {
  auto watcher = connect();
  ASSERT_TRUE(watcher);
  watcher->result("resources/subscribe", {{"uri", kStatusUri}});
  auto newcomer = connect();
  ASSERT_TRUE(newcomer);
  ASSERT_FALSE(next_status(*watcher).is_null());
  EXPECT_TRUE(client().silent_for(500ms)) << "a client that did not subscribe was told";

  // Unsubscribed, the watcher hears nothing more either.
  watcher->result("resources/unsubscribe", {{"uri", kStatusUri}});
  newcomer->close();
  EXPECT_TRUE(watcher->silent_for(600ms));
}

TEST_F(DaemonStatus, MCPUClientsSubscribeToo) {
  const json subscribed = client().result("subscribe", {{"uris", {kStatusUri}}});
  EXPECT_EQ(subscribed["subscribed"], json({kStatusUri})) << subscribed.dump();
  auto newcomer = connect();
  ASSERT_TRUE(newcomer);
  EXPECT_FALSE(status_until(client(), [](const json& s) { return tcp_clients(s) == 2; }).is_null());
}

TEST(DaemonStatusUplinks, ARetryingUplinkSaysWhenItDialsNextAndEachRetryIsPushed) {
  DaemonProcess daemon;
  // Port 1 on loopback: refused at once, so the uplink keeps retrying.
  const auto config = daemon.write_file(
      "mcpud.toml",
      sim_config_toml() + "\n[uplink.services]\nserver = \"127.0.0.1:1\"\ntoken = \"t\"\nretry_max_ms = 1000\n");
  const int port = daemon.start_tcp({"--config", config});
  ASSERT_NE(port, 0) << daemon.log();
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  client->result("resources/subscribe", {{"uri", kStatusUri}});

  const auto retrying = [](const json& s) {
    return s["uplinks"].size() == 1 && s["uplinks"][0].contains("next_attempt_ms");
  };
  const json pushed = status_until(*client, retrying, 10s);
  ASSERT_FALSE(pushed.is_null()) << "no status with the uplink's next attempt was pushed\n" << daemon.log();
  const auto& uplink = pushed["data"]["uplinks"][0];
  EXPECT_EQ(uplink["kind"], "services");
  EXPECT_EQ(uplink["connected"], false);
  const auto next = uplink["next_attempt_ms"].get<std::int64_t>();
  EXPECT_GT(next, now_unix_ms() - 1000);
  EXPECT_LT(next, now_unix_ms() + 1500) << "retry_max_ms is 1 s";

  // The next retry fails too, and says its own next attempt.
  const json later = status_until(
      *client, [&](const json& s) { return retrying(s) && s["uplinks"][0]["next_attempt_ms"] != next; }, 10s);
  EXPECT_FALSE(later.is_null()) << "the next failed attempt was not pushed";

  // Read (by another client: this one hears pushes), the status says the same.
  auto reader = LineClient::connect_tcp(port);
  ASSERT_TRUE(reader);
  const json read = reader->result("resources/read", {{"uri", kStatusUri}});
  const json status = json::parse(read["contents"][0]["text"].get<std::string>());
  ASSERT_EQ(status["uplinks"].size(), 1u);
  EXPECT_EQ(status["uplinks"][0]["connected"], false);
}

}  // namespace
}  // namespace mcpud::it
