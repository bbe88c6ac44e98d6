// SPDX-License-Identifier: MIT
// wss:// for the voice-assistant uplink: a throwaway CA made with the openssl
// command, a backend presenting a certificate it signed, and mcpud verifying it
// (or refusing it) with SNI.
#include <cstdlib>
#include <filesystem>

#include "assistant/assistant_fixture.hpp"

namespace mcpud::it {
namespace {

struct TestPki {
  std::string ca;  // the CA certificate (PEM) mcpud is told to trust
  TlsFiles server;
};

// A CA and a server certificate for localhost and 127.0.0.1, both valid for two days.
std::optional<TestPki> make_pki(const TempDir& dir) {
  const std::string at = dir.path().string();
  const std::string quiet = " >/dev/null 2>&1";
  const std::string key = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  const std::string script =
      "cd '" + at + "' && openssl req -x509" + key + " -keyout ca.key -out ca.pem -days 2 -subj /CN=mcpud-test-ca" +
      quiet + " && openssl req" + key + " -keyout server.key -out server.csr -subj /CN=localhost" + quiet +
      " && printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > ext.cnf" +
      " && openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2"
      " -extfile ext.cnf" +
      quiet;
  if (std::system(script.c_str()) != 0) return std::nullopt;
  return TestPki{at + "/ca.pem", {at + "/server.pem", at + "/server.key"}};
}

class AssistantTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = make_pki(pki_dir_);
    ASSERT_TRUE(made) << "openssl could not make the test certificates";
    pki_ = *made;
    backend_.emplace(pki_.server);
  }
  std::string url() const { return "wss://localhost:" + std::to_string(backend_->port()) + "/xiaozhi/v1/"; }
  void start(const std::string& uplink_lines) {
    const auto path = daemon_.write_file("mcpud.toml", assistant_config(url(), uplink_lines));
    ASSERT_TRUE(daemon_.start({"--config", path}));
  }

  TempDir pki_dir_;
  TestPki pki_;
  std::optional<WsBackend> backend_;
  DaemonProcess daemon_;
};

TEST_F(AssistantTlsTest, VerifiesTheServerAgainstTheCaFileAndNamesItWithSni) {
  start("ca_file = \"" + pki_.ca + "\"");
  auto connection = backend_->accept();
  ASSERT_TRUE(connection) << daemon_.log();
  EXPECT_EQ(backend_->last_server_name(), "localhost");
  AssistantPeer peer(connection);
  ASSERT_TRUE(peer.handshake("tls-1"));
  EXPECT_EQ(peer.result("ping"), json::object());
  EXPECT_EQ(peer.result("tools/call", {{"name", "assistant_status"}})["structuredContent"]["url"], url());
}

TEST_F(AssistantTlsTest, RefusesAServerNoTrustedCaVouchesFor) {
  start("");  // the system CA store, which has never heard of the test CA
  EXPECT_TRUE(daemon_.wait_for_log("certificate verify failed")) << daemon_.log();
  EXPECT_TRUE(daemon_.running());
}

// wss:// comes from the TLS module: a mcpud without it (copied away from it)
// says which file it needs and where it looked, and retries; nothing crashes.
TEST_F(AssistantTlsTest, WithoutTheTlsModuleTheLinkSaysWhatIsMissing) {
  TempDir elsewhere;
  const auto binary = elsewhere.path() / "mcpud";
  std::filesystem::copy_file(MCPUD_BINARY, binary);
  const auto path = daemon_.write_file("mcpud.toml", assistant_config(url(), "ca_file = \"" + pki_.ca + "\""));
  ASSERT_TRUE(daemon_.start_program(binary.string(), {"--config", path, "--dbus", "none"}));
  EXPECT_TRUE(daemon_.wait_for_log("the TLS module mcpud-tls.so is not installed (looked for " +
                                   binary.parent_path().string() + "/mcpud-tls.so"))
      << daemon_.log();
  EXPECT_TRUE(daemon_.wait_for_log("retrying with backoff")) << daemon_.log();
  EXPECT_TRUE(daemon_.running());
}

}  // namespace
}  // namespace mcpud::it
