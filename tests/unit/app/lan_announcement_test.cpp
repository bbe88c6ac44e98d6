// SPDX-License-Identifier: MIT
// What is announced on the LAN: listeners beyond loopback only, with the TXT
// records a client needs, and instance names DNS-SD can carry.
#include "lan_announcement.hpp"

#include <gtest/gtest.h>

namespace mcpud::app {
namespace {

using nlohmann::json;
using Family = dbus::AnnouncedService::Family;

TEST(LanAnnouncement, ListenersOnLoopbackUnixAndTtyAreNotAnnounced) {
  const json listeners = json::parse(R"([
    {"kind": "tcp", "address": "127.0.0.1:3000"}, {"kind": "tcp", "address": "[::1]:3000"},
    {"kind": "unix", "address": "/run/mcpud/mcpud.sock"}, {"kind": "tty", "address": "/dev/ttyGS0:115200"},
    {"kind": "http", "address": "127.0.0.1:8080", "url": "http://127.0.0.1:8080/mcp"}])");
  EXPECT_TRUE(services_to_announce(listeners, true).empty());
}

TEST(LanAnnouncement, EachDoorBeyondLoopbackSaysWhatItSpeaks) {
  const json listeners = json::parse(R"([
    {"kind": "tcp", "address": "0.0.0.0:3000"}, {"kind": "tls", "address": "[::]:3443"},
    {"kind": "http", "address": "0.0.0.0:8443", "url": "https://0.0.0.0:8443/mcp"}])");
  const auto services = services_to_announce(listeners, false);
  ASSERT_EQ(services.size(), 3u);
  EXPECT_EQ(services[0],
            (dbus::AnnouncedService{"_mcpu._tcp", 3000, -1, Family::ipv4, {"txtvers=1", "tls=no", "auth=none"}}));
  EXPECT_EQ(services[1],
            (dbus::AnnouncedService{"_mcpu._tcp", 3443, -1, Family::any, {"txtvers=1", "tls=yes", "auth=none"}}));
  EXPECT_EQ(services[2], (dbus::AnnouncedService{
                             "_mcp._tcp", 8443, -1, Family::ipv4, {"txtvers=1", "path=/mcp", "tls=yes", "auth=none"}}));
  EXPECT_EQ(
      services_to_announce(json::parse(R"([{"kind": "http", "address": "0.0.0.0:80", "url": "http://x"}])"), true)[0]
          .txt,
      (std::vector<std::string>{"txtvers=1", "path=/mcp", "tls=no", "auth=bearer"}));
}

TEST(LanAnnouncement, TheInstanceNameIsTheDevicesUnlessGivenAndFitsALabel) {
  EXPECT_EQ(instance_name("", "bench-pi"), "bench-pi");
  EXPECT_EQ(instance_name("greenhouse", "bench-pi"), "greenhouse");
  EXPECT_EQ(instance_name("", std::string(64, 'a')), std::string(63, 'a'));
  // 31 two-byte characters and one more: cut before the one that would not fit whole.
  std::string wide;
  for (int i = 0; i < 32; ++i) wide += "\xC3\xA9";
  EXPECT_EQ(instance_name("", wide), wide.substr(0, 62));
}

TEST(LanAnnouncement, ADiscoveringBridgeTakesTheFirstMatchingBoardNoOtherTook) {
  const auto bridge_of = [](std::string id, std::string discover) {
    bridge::BridgeConfig config;
    config.id = std::move(id);
    config.discover = std::move(discover);
    return config;
  };
  bridge::BridgeConfig wired;
  wired.id = "wired";
  wired.tcp = "192.168.1.9:3000";
  const std::vector<dbus::FoundService> found{
      {"bench-pi", "192.168.1.2", 3000}, {"uno-a", "192.168.1.40", 3000}, {"uno-b", "2001:db8::41", 3001}};
  const auto placed = place_discovered_bridges({wired, bridge_of("first", "uno-*"), bridge_of("second", "uno-*"),
                                                bridge_of("none", "esp-*"), bridge_of("self", "bench-*")},
                                               found, "bench-pi");
  ASSERT_EQ(placed.size(), 3u) << "no board for 'none', and never this daemon itself";
  EXPECT_EQ(placed[0], wired);
  EXPECT_EQ(placed[1].tcp, "192.168.1.40:3000");
  EXPECT_EQ(placed[2].tcp, "[2001:db8::41]:3001");
}

}  // namespace
}  // namespace mcpud::app
