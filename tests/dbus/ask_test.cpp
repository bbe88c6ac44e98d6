// SPDX-License-Identifier: MIT
// `mcpuctl ask` through the real mcpud on a private bus: the question goes to a
// test peer playing the ##START AI server as TEXT + END_FRAME under a fresh
// TaskID, and the peer's TEXT answer is what mcpuctl prints.
#include <gtest/gtest.h>

#include "bus_daemon.hpp"
#include "ctl_run.hpp"
#include "support/configs.hpp"
#include "support/fixtures.hpp"
#include "support/start_peer.hpp"

namespace mcpud::it {
namespace {

constexpr std::uint8_t kEndFrame = 0x03, kText = 0x04;

class DbusAsk : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(bus_.address().empty());
    bus_.export_address();
  }

  void start_daemon(const std::string& uplink) {
    const auto path = daemon_.write_file("mcpud.toml", sim_config_toml() + uplink);
    ASSERT_TRUE(daemon_.start({"--config", path, "--dbus=session"}));
    ASSERT_TRUE(daemon_.wait_for_log("serving io.mcpud.Daemon1 on the session bus")) << daemon_.log();
  }

  // Starts the daemon against the peer and waits until it has registered.
  void start_connected(const std::string& extra = {}) {
    start_daemon("\n[uplink.services]\nserver = \"" + peer_.address() + "\"\ntoken = \"t\"\n" + extra);
    ASSERT_TRUE(peer_.accept()) << daemon_.log();
    ASSERT_TRUE(peer_.wait_for_mcp("register")) << daemon_.log();
  }

  // Runs `mcpuctl ask` and expects it to fail with `reason`.
  void expect_ask_fails(const std::string& reason) {
    const auto r = run_ctl({"--bus=session", "ask", "What time is it?"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "mcpuctl: " + reason + "\n");
  }

  BusDaemon bus_{BusDaemon::Kind::Session};
  StartPeer peer_;
  DaemonProcess daemon_;
};

TEST_F(DbusAsk, PrintsTheServersAnswerToTheQuestion) {
  start_connected();
  DaemonProcess ctl;
  ASSERT_TRUE(ctl.start_program(MCPUCTL_BINARY, {"--bus=session", "ask", "What time is it?"}));
  const auto question = peer_.wait_for([](const PeerFrame& f) { return f.type == kText; });
  ASSERT_TRUE(question) << daemon_.log();
  EXPECT_EQ(question->content, "What time is it?");
  EXPECT_EQ(question->seq, "0000");
  EXPECT_EQ(question->task_id.size(), 8u);
  EXPECT_NE(question->task_id, "00000000");
  EXPECT_NE(question->task_id, "mcp00001");
  const auto end = peer_.next_frame();
  ASSERT_TRUE(end);
  EXPECT_EQ(end->type, kEndFrame);
  EXPECT_EQ(end->task_id, question->task_id);
  EXPECT_EQ(end->seq, "0001");
  // A reply for another task is not mixed in; the answer comes in two TEXT frames.
  ASSERT_TRUE(peer_.send_frame(kText, "other123", "0000", "not for you"));
  ASSERT_TRUE(peer_.send_frame(kText, question->task_id, "0000", "It is 14:30:25 "));
  ASSERT_TRUE(peer_.send_frame(kText, question->task_id, "0001", "on 22 Jan 2025"));
  ASSERT_TRUE(peer_.send_frame(kEndFrame, question->task_id, "0002", ""));
  EXPECT_EQ(ctl.wait_exit(20s), 0) << ctl.log();
  EXPECT_EQ(ctl.stdout_text(), "It is 14:30:25 on 22 Jan 2025\n");
}

TEST_F(DbusAsk, ClientsListsTheConnectedUplink) {
  start_connected();
  const auto r = run_ctl({"--bus=session", "clients", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  bool found = false;
  for (const auto& row : r.json())
    found = found || (row["transport"] == "services" && contains(row["peer"].get<std::string>(), "127.0.0.1:"));
  EXPECT_TRUE(found) << r.out;
}

TEST_F(DbusAsk, AnAnswerWithoutEndFrameIsReturnedAfterAQuietPeriod) {
  start_connected("ask_quiet_ms = 200\n");
  DaemonProcess ctl;
  ASSERT_TRUE(ctl.start_program(MCPUCTL_BINARY, {"--bus=session", "--json", "ask", "Hello?"}));
  const auto question = peer_.wait_for([](const PeerFrame& f) { return f.type == kText; });
  ASSERT_TRUE(question) << daemon_.log();
  ASSERT_TRUE(peer_.send_frame(kText, question->task_id, "0000", "Hi there"));
  EXPECT_EQ(ctl.wait_exit(20s), 0) << ctl.log();
  EXPECT_EQ(ctl.stdout_text(), "{\"reply\":\"Hi there\"}\n");
}

TEST_F(DbusAsk, ASilentServerIsATimeout) {
  start_connected("ask_timeout_s = 1\n");
  expect_ask_fails("the server did not answer within 1 s (Timeout)");
}

TEST_F(DbusAsk, WithoutTheUplinkTheFailureSaysSo) {
  start_daemon("");
  expect_ask_fails("no services uplink is configured ([uplink.services] server) (UplinkNotConfigured)");
}

TEST_F(DbusAsk, WhileDisconnectedTheFailureSaysSo) {
  // Nothing listens on port 1: the daemon keeps redialing.
  start_daemon("\n[uplink.services]\nserver = \"127.0.0.1:1\"\ntoken = \"t\"\n");
  expect_ask_fails("not connected to 127.0.0.1:1 (reconnecting) (UplinkNotConnected)");
}

TEST_F(DbusAsk, ALostConnectionEndsTheWait) {
  start_connected();
  DaemonProcess ctl;
  ASSERT_TRUE(ctl.start_program(MCPUCTL_BINARY, {"--bus=session", "ask", "Still there?"}));
  ASSERT_TRUE(peer_.wait_for([](const PeerFrame& f) { return f.type == kText; })) << daemon_.log();
  peer_.drop();
  EXPECT_EQ(ctl.wait_exit(20s), 1);
  EXPECT_TRUE(contains(ctl.log(), "(UplinkNotConnected)")) << ctl.log();
}

}  // namespace
}  // namespace mcpud::it
