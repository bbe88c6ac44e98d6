// SPDX-License-Identifier: MIT
// The ##START services uplink over TLS: the server's certificate is verified
// against the configured CA (a throwaway one made here with openssl) and its
// name checked; a server the CA did not sign gets no AUTH.
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "support/configs.hpp"
#include "support/daemon_process.hpp"
#include "support/fixtures.hpp"
#include "support/start_peer.hpp"
#include "support/test_ca.hpp"

namespace mcpud::it {
namespace {

std::string mapped_files(pid_t pid) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  return {std::istreambuf_iterator<char>(maps), {}};
}

class ServicesTls : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(make_certificates(certs_, "good"));
    ASSERT_TRUE(make_certificates(certs_, "other"));
  }
  std::string file(const std::string& name) const { return certs_.path().string() + "/" + name; }

  PeerTls server_tls() const { return {file("good-server.pem"), file("good-server.key")}; }
  void start(StartPeer& peer, const std::string& ca, const std::string& extra = {}) {
    const auto path = daemon_.write_file("mcpud.toml", sim_config_toml() + "\n[uplink.services]\nserver = \"" +
                                                           peer.address() + "\"\ntls = true\nca_file = \"" + file(ca) +
                                                           "\"\ntoken = \"tls-token\"\n" + extra);
    ASSERT_TRUE(daemon_.start({"--config", path}));
  }

  TempDir certs_;
  DaemonProcess daemon_;
};

TEST_F(ServicesTls, VerifiesTheServerAndServesCallsOverTls) {
  StartPeer peer(server_tls());
  start(peer, "good-ca.pem");
  ASSERT_TRUE(peer.accept()) << daemon_.log();
  const auto auth = peer.next_frame(5s);
  ASSERT_TRUE(auth) << daemon_.log();
  EXPECT_EQ(auth->content, "tls-token##format:pcm");
  ASSERT_TRUE(peer.wait_for_mcp("register"));
  EXPECT_EQ(peer.call("t1", "gpio_write", {{"pin", 2}, {"value", true}})["success"], true);
  EXPECT_EQ(peer.call("t2", "gpio_read", {{"pin", 2}})["data"]["value"], true);
  EXPECT_TRUE(daemon_.wait_for_log("TLS verified")) << daemon_.log();
  // TLS came from the module, which brought OpenSSL (a daemon without a TLS
  // uplink maps neither: HardwareStart.OnDemandLibrariesAreNotMappedUnconfigured).
  const auto mapped = mapped_files(daemon_.pid());
  EXPECT_TRUE(contains(mapped, "/mcpud-tls.so")) << mapped;
  EXPECT_TRUE(contains(mapped, "/libssl.so")) << mapped;
}

TEST_F(ServicesTls, ChecksTheNameOnTheCertificate) {
  StartPeer peer(server_tls());
  start(peer, "good-ca.pem", "server_name = \"localhost\"\n");
  ASSERT_TRUE(peer.accept()) << daemon_.log();
  EXPECT_TRUE(peer.wait_for_mcp("register")) << daemon_.log();

  DaemonProcess wrong_name;
  StartPeer peer2(server_tls());
  const auto path =
      wrong_name.write_file("mcpud.toml", sim_config_toml() + "\n[uplink.services]\nserver = \"" + peer2.address() +
                                              "\"\ntls = true\nca_file = \"" + file("good-ca.pem") +
                                              "\"\nserver_name = \"other.example\"\ntoken = \"t\"\n");
  ASSERT_TRUE(wrong_name.start({"--config", path}));
  EXPECT_FALSE(peer2.accept());  // the handshake fails on the daemon's side
  EXPECT_TRUE(wrong_name.wait_for_log("certificate verify failed")) << wrong_name.log();
}

TEST_F(ServicesTls, RefusesAServerItsCaDidNotSign) {
  StartPeer peer(server_tls());
  start(peer, "other-ca.pem");
  EXPECT_FALSE(peer.accept());
  EXPECT_TRUE(daemon_.wait_for_log("certificate verify failed")) << daemon_.log();
  EXPECT_FALSE(contains(daemon_.log(), "tls-token"));
}

TEST_F(ServicesTls, ACaFileThatCannotBeLoadedIsNamedWithWhy) {
  StartPeer peer(server_tls());
  start(peer, "missing-ca.pem");
  EXPECT_TRUE(
      daemon_.wait_for_log("cannot load the CA file '" + file("missing-ca.pem") + "': No such file or directory"))
      << daemon_.log();
  EXPECT_TRUE(daemon_.running());
}

// A mcpud without its TLS module (copied away from it, as a package installed
// without the file would be) says which file it needs and where it looked, and
// goes on serving; nothing crashes.
TEST_F(ServicesTls, WithoutTheTlsModuleTheUplinkSaysWhatIsMissing) {
  TempDir elsewhere;
  const auto binary = elsewhere.path() / "mcpud";
  std::filesystem::copy_file(MCPUD_BINARY, binary);
  StartPeer peer(server_tls());
  const auto path = daemon_.write_file("mcpud.toml", sim_config_toml() + "\n[uplink.services]\nserver = \"" +
                                                         peer.address() + "\"\ntls = true\ntoken = \"t\"\n");
  ASSERT_TRUE(daemon_.start_program(binary.string(), {"--config", path, "--dbus", "none", "--listen", "127.0.0.1:0"}));
  EXPECT_TRUE(daemon_.wait_for_log("the TLS module mcpud-tls.so is not installed (looked for " +
                                   binary.parent_path().string() + "/mcpud-tls.so"))
      << daemon_.log();
  ASSERT_GT(daemon_.wait_for_port(), 0) << daemon_.log();
  auto client = LineClient::connect_tcp(daemon_.port());
  ASSERT_TRUE(client);
  client->call("gpio_write", {{"pin", 2}, {"value", true}});
  EXPECT_EQ(client->call("gpio_read", {{"pin", 2}})["result"]["value"], true) << daemon_.log();
  EXPECT_TRUE(daemon_.running());
}

}  // namespace
}  // namespace mcpud::it
