// SPDX-License-Identifier: MIT
// What an operator sees of the voice-assistant uplink through mcpuctl on a
// private D-Bus: the connected session among the clients, and the server's
// capabilities (secrets redacted) from assistant_status.
#include "assistant/assistant_fixture.hpp"
#include "dbus/bus_daemon.hpp"
#include "dbus/ctl_run.hpp"

namespace mcpud::it {
namespace {

class AssistantOperatorTest : public AssistantUplinkTest {
 protected:
  void SetUp() override {
    ASSERT_FALSE(bus_.address().empty());
    bus_.export_address();
  }
  CtlOutput ctl(std::vector<std::string> args) {
    args.insert(args.begin(), "--bus=session");
    return run_ctl(args);
  }

  BusDaemon bus_{BusDaemon::Kind::Session};
};

TEST_F(AssistantOperatorTest, McpuctlShowsTheSessionAndTheServersCapabilities) {
  config_path_ = daemon_.write_file("mcpud.toml", assistant_config(url(), ""));
  ASSERT_TRUE(daemon_.start({"--config", config_path_, "--dbus=session"}));
  auto peer = initialized("op-1");
  ASSERT_TRUE(peer);
  ASSERT_TRUE(daemon_.wait_for_log("serving io.mcpud.Daemon1 on the session bus")) << daemon_.log();

  const auto clients = ctl({"clients", "--json"});
  ASSERT_EQ(clients.exit_code, 0) << clients.err;
  bool listed = false;
  for (const auto& row : clients.json()) {
    listed |= row["transport"] == "assistant-ws" &&
              row["peer"] == "ws://127.0.0.1:" + std::to_string(backend_.port()) + "/xiaozhi/v1/ session op-1";
  }
  EXPECT_TRUE(listed) << clients.out;

  const auto status = ctl({"call", "assistant_status"});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("http://vision.example/upload"), std::string::npos) << status.out;
  EXPECT_EQ(status.out.find("vision-secret"), std::string::npos) << status.out;
}

}  // namespace
}  // namespace mcpud::it
