// SPDX-License-Identifier: MIT
// Unit tests of the voice-assistant transport messages and the device identity.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "assistant_protocol.hpp"
#include "device_identity.hpp"

namespace mcpud::uplinks {
namespace {

using nlohmann::json;

TEST(AssistantProtocol, DeviceHelloHasTheReferenceShape) {
  const auto hello = json::parse(device_hello(1, "websocket", {{"format", "opus"}}));
  EXPECT_EQ(hello, json::parse(R"({"type":"hello","version":1,"features":{"mcp":true},"transport":"websocket",
                                   "audio_params":{"format":"opus"}})"));
}

TEST(AssistantProtocol, ClassifiesIncomingMessages) {
  EXPECT_EQ(classify(R"({"type":"hello","transport":"websocket","session_id":"s"})").kind, IncomingKind::Hello);
  EXPECT_EQ(classify(R"({"session_id":"s","type":"mcp","payload":{"jsonrpc":"2.0","method":"ping","id":1}})").kind,
            IncomingKind::Mcp);
  EXPECT_EQ(classify(R"({"session_id":"s","type":"goodbye"})").kind, IncomingKind::Goodbye);
  EXPECT_EQ(classify(R"({"session_id":"s","type":"tts","state":"start"})").kind, IncomingKind::Other);
  const auto no_payload = classify(R"({"type":"mcp","payload":3})");
  EXPECT_EQ(no_payload.kind, IncomingKind::Invalid);
  EXPECT_EQ(no_payload.problem, "mcp message without an object payload");
  EXPECT_EQ(classify("[1,2]").problem, "not a JSON object");
  EXPECT_EQ(classify("{not json").problem, "not a JSON object");
  EXPECT_EQ(classify(R"({"type":7})").problem, "no \"type\" string");
}

TEST(AssistantProtocol, AcceptsOnlyAServerHelloForItsTransportWithASession) {
  EXPECT_EQ(
      accept_server_hello(json::parse(R"({"type":"hello","transport":"websocket","session_id":"abc"})"), "websocket")
          .value(),
      "abc");
  EXPECT_EQ(
      accept_server_hello(json::parse(R"({"type":"hello","transport":"udp","session_id":"abc"})"), "websocket").error(),
      "server hello: transport must be \"websocket\", got \"udp\"");
  EXPECT_EQ(accept_server_hello(json::parse(R"({"type":"hello","transport":"websocket"})"), "websocket").error(),
            "server hello: session_id must be a non-empty string");
  EXPECT_FALSE(accept_server_hello(json::parse(R"({"transport":"websocket","session_id":""})"), "websocket"));
}

TEST(AssistantProtocol, GoodbyeEndsItsOwnSessionOnly) {
  EXPECT_EQ(json::parse(goodbye("s1")), json::parse(R"({"session_id":"s1","type":"goodbye"})"));
  EXPECT_TRUE(ends_session(json::parse(R"({"type":"goodbye","session_id":"s1"})"), "s1"));
  EXPECT_TRUE(ends_session(json::parse(R"({"type":"goodbye"})"), "s1"));
  EXPECT_FALSE(ends_session(json::parse(R"({"type":"goodbye","session_id":"old"})"), "s1"));
}

TEST(AssistantProtocol, AnEnvelopeWithoutSessionGetsTheCurrentOne) {
  const auto filled = json::parse(mcp_envelope(json::parse(R"({"type":"mcp","payload":{}})"), "s9"));
  EXPECT_EQ(filled["session_id"], "s9");
  const auto kept = json::parse(mcp_envelope(json::parse(R"({"type":"mcp","session_id":"own","payload":{}})"), "s9"));
  EXPECT_EQ(kept["session_id"], "own");
}

TEST(AssistantProtocol, RedactsSecretsAtAnyDepth) {
  const auto redacted = redact_secrets(json::parse(
      R"({"vision":{"url":"http://v","token":"t"},"other":[{"api_secret":"x","Password":"p","n":1}],"tokens":{"a":"b"}})"));
  EXPECT_EQ(redacted["vision"]["url"], "http://v");
  EXPECT_EQ(redacted["vision"]["token"], "(set)");
  EXPECT_EQ(redacted["other"][0]["api_secret"], "(set)");
  EXPECT_EQ(redacted["other"][0]["Password"], "(set)");
  EXPECT_EQ(redacted["other"][0]["n"], 1);
  EXPECT_EQ(redacted["tokens"]["a"], "b") << "an object is searched, not hidden whole";
}

TEST(DeviceIdentity, DeviceIdIsAMacAndClientIdAStableUuid) {
  const auto device = default_device_id();
  EXPECT_TRUE(std::regex_match(device, std::regex("([0-9a-f]{2}:){5}[0-9a-f]{2}"))) << device;
  const auto client = derived_client_id(device);
  EXPECT_EQ(client, derived_client_id(device));
  EXPECT_NE(client, derived_client_id("00:11:22:33:44:55"));
  EXPECT_TRUE(
      std::regex_match(client, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << client;
  EXPECT_EQ(uuid_from_digest(std::string(16, '\0')), "00000000-0000-5000-8000-000000000000");
  EXPECT_EQ(default_reply_topic("aa:bb:cc:dd:ee:ff"), "devices/p2p/aa_bb_cc_dd_ee_ff");
}

// A fake /sys/class/net: one directory per interface, as the kernel lays it out.
class FakeSysNet {
 public:
  FakeSysNet() : root_(std::filesystem::temp_directory_path() / ("mcpud-sysnet-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root_);
  }
  ~FakeSysNet() { std::filesystem::remove_all(root_); }
  void add(const std::string& name, const std::string& mac, const std::string& operstate, bool physical, int index,
           const std::string& type = "1") {
    const auto dir = root_ / name;
    std::filesystem::create_directories(dir);
    const auto write = [&](const char* file, const std::string& text) { std::ofstream(dir / file) << text << "\n"; };
    write("address", mac);
    write("operstate", operstate);
    write("ifindex", std::to_string(index));
    write("type", type);
    if (physical) std::filesystem::create_directory(dir / "device");  // a symlink to the bus device in real sysfs
  }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

TEST(DeviceIdentity, PrefersAnUpPhysicalInterfaceOverADownVirtualOne) {
  FakeSysNet net;
  net.add("lo", "00:00:00:00:00:00", "unknown", false, 1, "772");
  net.add("ifb0", "2a:11:22:33:44:55", "down", false, 2);
  net.add("eth0", "DC:A6:32:00:00:01", "down", true, 3);
  net.add("wlan0", "dc:a6:32:00:00:02", "up", true, 4);
  EXPECT_EQ(choose_device_mac(read_interfaces(net.root())), "dc:a6:32:00:00:02");
}

TEST(DeviceIdentity, FallsBackToADownPhysicalThenToAVirtualInterface) {
  FakeSysNet net;
  net.add("ifb0", "2a:11:22:33:44:55", "down", false, 2);
  net.add("eth0", "dc:a6:32:00:00:01", "down", true, 5);
  EXPECT_EQ(choose_device_mac(read_interfaces(net.root())), "dc:a6:32:00:00:01");
  FakeSysNet virtual_only;
  virtual_only.add("veth1", "2a:00:00:00:00:09", "up", false, 9);
  virtual_only.add("lo", "00:00:00:00:00:00", "unknown", false, 1, "772");
  EXPECT_EQ(choose_device_mac(read_interfaces(virtual_only.root())), "2a:00:00:00:00:09");
  FakeSysNet none;
  none.add("lo", "00:00:00:00:00:00", "unknown", false, 1, "772");
  EXPECT_EQ(choose_device_mac(read_interfaces(none.root())), std::nullopt);
}

}  // namespace
}  // namespace mcpud::uplinks
