// SPDX-License-Identifier: MIT
// MCP/U over a serial port, played by a pseudo-terminal: mcpud opens the slave
// by path (a symlink in the test's temp dir), the test talks on the master. When
// the device vanishes mcpud waits for the path to come back and reopens it.

#include <filesystem>

#include "support/fixtures.hpp"
#include "support/scripted_device.hpp"

namespace mcpud::it {
namespace {

// get_info then list_tools, as the reference client does after connecting.
void expect_discovery_works(LineClient& client) {
  ASSERT_TRUE(client.send_line(R"({"jsonrpc":"2.0","id":1,"method":"get_info"})"));
  const auto info_line = client.read_line(10s);
  ASSERT_TRUE(info_line) << "no get_info reply on the tty";
  EXPECT_EQ(info_line->find('\r'), std::string::npos) << "raw mode: no \\r added to replies";
  const json info = json::parse(*info_line, nullptr, false);
  EXPECT_EQ(info["id"], 1);
  EXPECT_EQ(info["result"]["device"], "mcpud-sim");
  EXPECT_EQ(info["result"]["platform"], "linux");

  const json listing = client.call("list_tools", json::object(), 2, 10s);
  EXPECT_EQ(listing["id"], 2);
  EXPECT_EQ(listing["result"]["pins"].size(), 16u);
  EXPECT_FALSE(listing["result"]["tools"].empty());
}

class TtyListener : public ::testing::Test {
 protected:
  void SetUp() override { link_ = daemon_.temp_dir().path() / "ttyMCPU"; }

  std::string tty_arg() const { return link_.string() + ":115200"; }
  std::string serving() const { return "serving MCP/U on " + link_.string(); }

  DaemonProcess daemon_;
  std::filesystem::path link_;
};

TEST_F(TtyListener, DiscoveryOverAPtyThenReopensTheDeviceAfterItVanishesWithoutRestarting) {
  auto pty = open_pty();
  ASSERT_TRUE(pty);
  point_link(link_, pty->slave_path);
  const int port = daemon_.start_tcp({"--tty", tty_arg()});
  ASSERT_NE(port, 0);
  ASSERT_TRUE(daemon_.wait_for_log(serving())) << "mcpud did not open " << link_;
  auto tcp = LineClient::connect_tcp(port);
  ASSERT_TRUE(tcp);

  {
    LineClient serial(pty->master);
    expect_discovery_works(serial);
    EXPECT_EQ(serial.result("gpio_write", {{"pin", 2}, {"value", true}})["value"], true);
  }  // closes the master: the device is gone
  ASSERT_TRUE(daemon_.wait_for_log("closed (device gone?)")) << "mcpud did not notice the device vanish";

  auto next = open_pty();
  ASSERT_TRUE(next);
  point_link(link_, next->slave_path);
  ASSERT_TRUE(daemon_.wait_for_log(serving(), 10s, 2)) << "mcpud did not reopen " << link_;
  LineClient serial(next->master);
  expect_discovery_works(serial);
  // Same process, same state, except that the led's client went with the
  // device: the led is back at its safe value (docs/safety.md).
  EXPECT_EQ(serial.result("gpio_read", {{"pin", 2}})["value"], false);
  EXPECT_TRUE(daemon_.wait_for_log("led back to false (release)"));
  EXPECT_TRUE(daemon_.running());
  EXPECT_EQ(tcp->result("get_info")["device"], "mcpud-sim") << "TCP clients are unaffected";
}

TEST_F(TtyListener, DeviceThatAppearsAfterStartIsServedOnceItExists) {
  const int port = daemon_.start_tcp({"--tty", tty_arg()});
  ASSERT_NE(port, 0);
  ASSERT_TRUE(daemon_.wait_for_log("retrying every second")) << "a missing tty is reported, not fatal";
  auto pty = open_pty();
  ASSERT_TRUE(pty);
  point_link(link_, pty->slave_path);
  ASSERT_TRUE(daemon_.wait_for_log(serving(), 10s));
  LineClient serial(pty->master);
  expect_discovery_works(serial);
}

TEST_F(TtyListener, TtyHandlesFramingLikeTcp) {
  auto pty = open_pty();
  ASSERT_TRUE(pty);
  point_link(link_, pty->slave_path);
  ASSERT_NE(daemon_.start_tcp({"--tty", tty_arg()}), 0);
  ASSERT_TRUE(daemon_.wait_for_log(serving()));
  LineClient serial(pty->master);
  // CRLF, an empty line, garbage, and two requests in one write.
  ASSERT_TRUE(serial.send_raw("\r\nnot json\r\n" + request_text("gpio_read", {{"pin", 2}}, 1) + "\r\n" +
                              request_text("gpio_read", {{"pin", 3}}, 2) + "\n"));
  const json garbage = json::parse(serial.read_line().value_or("null"));
  EXPECT_TRUE(is_error(garbage, -32700));
  EXPECT_EQ(json::parse(serial.read_line().value_or("null"))["id"], 1);
  EXPECT_EQ(json::parse(serial.read_line().value_or("null"))["id"], 2);
}

}  // namespace
}  // namespace mcpud::it
