// SPDX-License-Identifier: MIT
// TLS on the listening doors, through the real binary: HTTPS on [http] with a
// throwaway CA, plain HTTP on that port refused with a 400 that says why, a
// renewed certificate served after SIGHUP (and a broken renewal not), silent
// handshakes bounded and timed out, MCP/U over
// TLS (listen_tls) with openssl s_client, and configurations that cannot work
// refused naming the key or file.
#include <cstdio>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "support/configs.hpp"
#include "support/fixtures.hpp"
#include "support/test_ca.hpp"
#include "support/tls_client.hpp"

// A namespace of its own: the integration tests build as unity sources.
namespace mcpud::it::tls_listen {
namespace {

std::string initialize_request() {
  const std::string body = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
                           R"("capabilities":{},"clientInfo":{"name":"tls-test","version":"1"}}})";
  return "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

// What `openssl s_client` prints of the server's reply to `line`, given on its stdin.
std::string s_client_exchange(int port, const std::string& ca_file, const std::string& line) {
  const std::string command =
      "(printf '%s\\n' '" + line + "'; sleep 1) | timeout 10 openssl s_client -quiet -no_ign_eof " +
      "-verify_return_error -CAfile '" + ca_file + "' -connect 127.0.0.1:" + std::to_string(port) + " 2>/dev/null";
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, got);
    ::pclose(pipe);
  }
  return out;
}

class TlsListen : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(make_certificates(certs_, "good"));
    ASSERT_TRUE(make_certificates(certs_, "other"));
  }
  std::string file(const std::string& name) const { return certs_.path().string() + "/" + name; }
  std::string tls_keys() const {
    return "tls_cert = \"" + file("good-server.pem") + "\"\ntls_key = \"" + file("good-server.key") + "\"\n";
  }

  // mcpud with HTTPS on a kernel-chosen port; that port.
  int start_https() {
    const auto config =
        daemon_.write_file("mcpud.toml", sim_config_toml() + "\n[http]\nlisten = \"127.0.0.1:0\"\n" + tls_keys());
    if (!daemon_.start({"--config", config, "--dbus", "none"})) return 0;
    const auto port = daemon_.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) .*HTTPS with CN=localhost)"));
    return port ? std::stoi(port->at(1)) : 0;
  }

  // mcpud with MCP/U over TLS on a kernel-chosen port; that port.
  int start_mcpu_tls() {
    const auto config =
        daemon_.write_file("mcpud.toml", "listen_tls = [\"127.0.0.1:0\"]\n" + tls_keys() + sim_config_toml());
    if (!daemon_.start({"--config", config, "--dbus", "none"})) return 0;
    const auto port = daemon_.wait_for_log(std::regex(R"(\[tcp\] listening on \S+:(\d+) \(MCP/U over TLS)"));
    return port ? std::stoi(port->at(1)) : 0;
  }

  TempDir certs_;
  DaemonProcess daemon_;
};

TEST_F(TlsListen, ServesMcpOverHttpsToAClientTrustingTheCa) {
  const int port = start_https();
  ASSERT_GT(port, 0) << daemon_.log();
  const auto exchange = tls_exchange(port, file("good-ca.pem"), initialize_request());
  ASSERT_TRUE(exchange.secured) << exchange.error << daemon_.log();
  EXPECT_TRUE(exchange.reply.starts_with("HTTP/1.1 200")) << exchange.reply;
  EXPECT_TRUE(contains(exchange.reply, R"("serverInfo")"));
}

TEST_F(TlsListen, AClientOfAnotherCaFailsTheHandshakeAndTheDaemonSaysSo) {
  const int port = start_https();
  ASSERT_GT(port, 0) << daemon_.log();
  const auto exchange = tls_exchange(port, file("other-ca.pem"), initialize_request());
  EXPECT_FALSE(exchange.secured);
  EXPECT_TRUE(contains(exchange.error, "certificate verify failed"));
  EXPECT_TRUE(daemon_.wait_for_log("TLS handshake failed")) << daemon_.log();
  // The daemon goes on serving those who trust it.
  EXPECT_TRUE(tls_exchange(port, file("good-ca.pem"), initialize_request()).secured);
}

TEST_F(TlsListen, PlainHttpOnTheHttpsPortGetsA400SayingWhy) {
  const int port = start_https();
  ASSERT_GT(port, 0) << daemon_.log();
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  ASSERT_TRUE(client->send_raw(initialize_request()));
  const auto status = client->read_line();
  ASSERT_TRUE(status) << daemon_.log();
  EXPECT_TRUE(status->starts_with("HTTP/1.1 400")) << *status;
  std::string rest;
  while (auto line = client->read_line(2s)) rest += *line + "\n";
  EXPECT_TRUE(contains(rest, "This port speaks HTTPS"));
  EXPECT_TRUE(daemon_.wait_for_log("plain HTTP on an HTTPS port")) << daemon_.log();
}

TEST_F(TlsListen, ARenewedCertificateIsServedAfterSighup) {
  const int port = start_https();
  ASSERT_GT(port, 0) << daemon_.log();
  const auto before = tls_exchange(port, file("good-ca.pem"), initialize_request());
  ASSERT_TRUE(before.secured) << before.error;
  ASSERT_TRUE(renew_server_certificate(certs_, "good", "good"));  // new key and serial in the same files
  daemon_.signal(SIGHUP);
  ASSERT_TRUE(daemon_.wait_for_log("reloaded:")) << daemon_.log();
  const auto after = tls_exchange(port, file("good-ca.pem"), initialize_request());
  ASSERT_TRUE(after.secured) << after.error << daemon_.log();
  EXPECT_NE(after.serial, before.serial);
  EXPECT_TRUE(contains(daemon_.log(), "serving CN=localhost, serial " + after.serial));
  EXPECT_TRUE(after.reply.starts_with("HTTP/1.1 200")) << after.reply;
}

TEST_F(TlsListen, ABrokenRenewalKeepsTheCertificateInUse) {
  const int port = start_https();
  ASSERT_GT(port, 0) << daemon_.log();
  const auto before = tls_exchange(port, file("good-ca.pem"), initialize_request());
  ASSERT_TRUE(before.secured) << before.error;
  certs_.write_file("good-server.pem", "-----BEGIN CERTIFICATE-----\ntruncated\n");
  daemon_.signal(SIGHUP);
  ASSERT_TRUE(daemon_.wait_for_log("reloaded:")) << daemon_.log();
  EXPECT_TRUE(contains(daemon_.log(), "is not a PEM certificate chain"));
  EXPECT_TRUE(contains(daemon_.log(), "still serving CN=localhost, serial " + before.serial));
  const auto after = tls_exchange(port, file("good-ca.pem"), initialize_request());
  ASSERT_TRUE(after.secured) << after.error;
  EXPECT_EQ(after.serial, before.serial);
}

// Clients that connect and never handshake hold at most 32 places, each for
// 10 s: one past them is closed at once, and once they are dropped the door
// serves again.
TEST_F(TlsListen, SilentHandshakesAreBoundedAndTimedOut) {
  const int port = start_https();
  ASSERT_GT(port, 0) << daemon_.log();
  std::vector<LineClient> silent;
  for (int i = 0; i < 32; ++i) {
    auto client = LineClient::connect_tcp(port);
    ASSERT_TRUE(client);
    silent.push_back(std::move(*client));
  }
  std::this_thread::sleep_for(300ms);  // every one accepted and waiting for its ClientHello
  auto one_too_many = LineClient::connect_tcp(port);
  ASSERT_TRUE(one_too_many);
  EXPECT_TRUE(one_too_many->wait_closed(2s)) << "the 33rd handshake is refused at once";
  EXPECT_TRUE(silent.front().wait_closed(15s)) << daemon_.log();
  EXPECT_TRUE(daemon_.wait_for_log("no TLS handshake within 10 s")) << daemon_.log();
  EXPECT_TRUE(tls_exchange(port, file("good-ca.pem"), initialize_request()).secured) << daemon_.log();
}

TEST_F(TlsListen, ServesMcpuOverTlsToOpensslSClient) {
  const int port = start_mcpu_tls();
  ASSERT_GT(port, 0) << daemon_.log();
  const auto reply = s_client_exchange(port, file("good-ca.pem"), R"({"jsonrpc":"2.0","id":7,"method":"get_info"})");
  const auto parsed = json::parse(reply.substr(0, reply.find('\n')), nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << reply << daemon_.log();
  EXPECT_EQ(parsed["id"], 7);
  EXPECT_EQ(parsed["result"]["device"], "mcpud-sim");
  // One the CA did not sign is refused by the client's own check.
  EXPECT_EQ(s_client_exchange(port, file("other-ca.pem"), R"({"jsonrpc":"2.0","id":8,"method":"get_info"})"), "");
}

TEST_F(TlsListen, PlainMcpuOnTheTlsPortGetsAnErrorSayingWhy) {
  const int port = start_mcpu_tls();
  ASSERT_GT(port, 0) << daemon_.log();
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  const auto reply = client->call("get_info", json::object());
  EXPECT_EQ(reply["error"]["code"], -32600) << reply.dump();
  EXPECT_TRUE(contains(reply["error"]["message"].get<std::string>(), "This port speaks MCP/U over TLS"));
}

TEST_F(TlsListen, ConfigurationsThatCannotWorkAreRefusedNamingTheKey) {
  const auto check = [this](const std::string& name, const std::string& toml) {
    DaemonProcess daemon;
    const auto config = daemon.write_file(name, toml);
    EXPECT_TRUE(daemon.start({"--config", config, "--dbus", "none"}));
    EXPECT_EQ(daemon.wait_exit(), 1) << daemon.log();
    return daemon.log();
  };
  EXPECT_TRUE(contains(check("no-key.toml", sim_config_toml() + "[http]\nlisten = \"127.0.0.1:0\"\ntls_cert = \"" +
                                                file("good-server.pem") + "\"\n"),
                       "http.tls_key: needed with tls_cert"));
  EXPECT_TRUE(contains(check("no-cert.toml", "listen_tls = [\"127.0.0.1:0\"]\n" + sim_config_toml()),
                       "listen_tls: needs tls_cert and tls_key"));
  EXPECT_TRUE(
      contains(check("missing.toml", sim_config_toml() + "[http]\nlisten = \"127.0.0.1:0\"\ntls_cert = \"" +
                                         file("gone.pem") + "\"\ntls_key = \"" + file("good-server.key") + "\"\n"),
               "cannot read the certificate file '" + file("gone.pem") + "': No such file or directory"));
  EXPECT_TRUE(contains(
      check("mismatch.toml", sim_config_toml() + "[http]\nlisten = \"127.0.0.1:0\"\ntls_cert = \"" +
                                 file("good-server.pem") + "\"\ntls_key = \"" + file("other-server.key") + "\"\n"),
      "does not belong to the certificate"));
}

}  // namespace
}  // namespace mcpud::it::tls_listen
