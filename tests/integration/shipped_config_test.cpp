// SPDX-License-Identifier: MIT
// The configuration the package installs as /etc/mcpud/mcpud.toml: valid, and
// safe as shipped (no pins, loopback only), yet get_info and list_tools answer.
#include <fstream>
#include <regex>
#include <sstream>

#include "support/fixtures.hpp"
#include "support/serial_peer.hpp"

namespace mcpud::it {
namespace {

TEST(ShippedConfig, PassesCheckConfigWithNoPinsAndLoopbackOnly) {
  DaemonProcess daemon;
  ASSERT_TRUE(daemon.start({"--check-config", MCPUD_SHIPPED_CONFIG}));
  EXPECT_EQ(daemon.wait_exit(10s), 0);
  EXPECT_TRUE(contains(daemon.log(), "OK, 0 pins"));
  const json resolved = json::parse(daemon.stdout_text(), nullptr, false);
  ASSERT_TRUE(resolved.is_object()) << daemon.stdout_text();
  EXPECT_EQ(resolved["board"], "none");
  EXPECT_EQ(resolved["pins"], json::array());
  EXPECT_EQ(resolved["tty"], json::array());
  ASSERT_TRUE(resolved["listen"].is_array());
  for (const auto& address : resolved["listen"]) EXPECT_TRUE(address.get<std::string>().starts_with("127.0.0.1:"));
}

TEST(ShippedConfig, TheDaemonServesDiscoveryWithoutClaimingAnyPin) {
  DaemonProcess daemon;
  // --listen replaces the shipped port 3000 with a free one; everything else as shipped.
  const int port = daemon.start_tcp({"--config", MCPUD_SHIPPED_CONFIG});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  const json info = client->result("get_info");
  EXPECT_EQ(info["device"], "mcpud");
  EXPECT_EQ(info["board"], "none");
  EXPECT_EQ(info["pin_count"], 0);
  const json listing = client->result("list_tools");
  EXPECT_EQ(listing["pins"], json::array());
  // No pin exists, so nothing can be driven: writes name the missing pin.
  const json write = client->call("gpio_write", {{"pin", 2}, {"value", true}});
  EXPECT_EQ(write["error"]["data"]["code"], "PIN_NOT_FOUND") << write;
}

TEST(ShippedConfig, OpensNoSerialPortUntilTheOperatorListsSome) {
  DaemonProcess daemon;
  SerialPeer peer(daemon.temp_dir().path() / "ttyUSB0");
  ASSERT_TRUE(peer.ok());
  const int port = daemon.start_tcp({"--config", MCPUD_SHIPPED_CONFIG});
  ASSERT_NE(port, 0);
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  for (const auto& path : {peer.link(), peer.slave()}) {
    const json refused = client->call("serial_connect", {{"port", path}});
    EXPECT_TRUE(is_error(refused, -32020, "NOT_AUTHORIZED")) << refused;
    EXPECT_TRUE(contains(refused["error"].value("message", ""), "[serial] allowed_ports lists none"));
  }
}

// The commented serial examples are valid once uncommented.
TEST(ShippedConfig, TheSerialExamplesWorkOnceUncommented) {
  std::ifstream in(MCPUD_SHIPPED_CONFIG);
  std::ostringstream edited;
  const std::regex example(R"(^# ((allowed_ports|share_sessions|buffer_bytes|buffer_bytes_total|max_sessions) = .*)$)");
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, example)) line = line.substr(2);
    edited << line << "\n";
  }
  DaemonProcess daemon;
  const auto path = daemon.write_file("mcpud.toml", edited.str());
  ASSERT_TRUE(daemon.start({"--check-config", path}));
  EXPECT_EQ(daemon.wait_exit(10s), 0) << daemon.log();
  const json resolved = json::parse(daemon.stdout_text(), nullptr, false);
  EXPECT_EQ(resolved["serial"]["allowed_ports"], json::array({"/dev/ttyUSB*", "/dev/ttyACM*", "/dev/serial/by-id/*"}))
      << daemon.stdout_text();
}

// The commented pin examples are valid: uncommented, on the simulated board.
TEST(ShippedConfig, ThePinExamplesWorkOnceUncommented) {
  std::ifstream in(MCPUD_SHIPPED_CONFIG);
  std::ostringstream edited;
  const std::regex example(
      R"(^# ((\[\[pins\]\])|((name|pin|type|description|initial|safe_value|sampling|pwm|safe_duty|max_on_ms|min_off_ms|)"
      R"(max_writes_per_s|lease_ms|requires|exclusive_with|min_duty|max_duty) = .*))$)");
  for (std::string line; std::getline(in, line);) {
    if (line == "board = \"none\"") line = "board = \"sim\"";
    if (std::regex_match(line, example)) line = line.substr(2);
    edited << line << "\n";
  }
  DaemonProcess daemon;
  const auto path = daemon.write_file("mcpud.toml", edited.str());
  ASSERT_TRUE(daemon.start({"--check-config", path}));
  EXPECT_EQ(daemon.wait_exit(10s), 0) << edited.str();
  EXPECT_TRUE(contains(daemon.log(), "OK, 10 pins"));
}

}  // namespace
}  // namespace mcpud::it
