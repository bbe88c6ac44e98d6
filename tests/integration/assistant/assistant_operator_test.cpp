// SPDX-License-Identifier: MIT
// What an operator sees of the voice-assistant uplink through mcpuctl on a
// private D-Bus: the connected session among the clients, and the server's
// capabilities (secrets redacted) from assistant_status.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "assistant/assistant_fixture.hpp"
#include "dbus/bus_daemon.hpp"
#include "dbus/ctl_run.hpp"
#include "support/line_client.hpp"

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

TEST(AssistantStatus, SaysWhyThereIsNoSession) {
  // A port held by a socket that never listens: connections to it are refused, and no
  // other test can take it meanwhile.
  const int holder = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(holder, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::getsockname(holder, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int closed_port = ntohs(address.sin_port);
  DaemonProcess daemon;
  const auto path =
      daemon.write_file("mcpud.toml", assistant_config("ws://127.0.0.1:" + std::to_string(closed_port) + "/", ""));
  ASSERT_TRUE(daemon.start({"--config", path}));
  const int port = daemon.wait_for_port();
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  json status;
  EXPECT_TRUE(eventually(
      [&] {
        status = client->result("assistant_status");
        return status.value("last_error", "").find("Connection refused") != std::string::npos;
      },
      10s))
      << status.dump();
  EXPECT_TRUE(status["state"] == "waiting" || status["state"] == "connecting") << status.dump();
  EXPECT_EQ(status["sessions"], 0);
  EXPECT_FALSE(status.contains("session_id"));
  EXPECT_TRUE(daemon.wait_for_log("cannot connect: Connection refused; retrying with backoff"));
  ::close(holder);
}

}  // namespace
}  // namespace mcpud::it
