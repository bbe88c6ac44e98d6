// SPDX-License-Identifier: MIT
// The real mcpud on a simulated board with [uplink.assistant] pointing at a
// test WebSocket backend on loopback.
#pragma once

#include <signal.h>

#include <string>

#include <gtest/gtest.h>

#include "assistant/assistant_peer.hpp"
#include "assistant/ws_backend.hpp"
#include "support/daemon_process.hpp"

namespace mcpud::it {

// A simulated board whose button toggles every 300 ms (a pin event each time),
// small tools/list pages, the unix socket off, and the uplink.
inline std::string assistant_config(const std::string& url, const std::string& uplink_lines,
                                    const std::string& more_tables = "") {
  return "device = \"assistant-test\"\nboard = \"sim\"\nlisten = [\"127.0.0.1:0\"]\n" + more_tables + R"(
[unix_socket]
path = ""

[mcp]
page_bytes = 512

[[pins]]
name = "led"
pin = 2
type = "digital_output"

[[pins]]
name = "button"
pin = 4
type = "digital_input"
sim = { mode = "square", period_ms = 600 }
sampling = { interval_ms = 20, edges = "both" }

[uplink.assistant]
url = ")" +
         url + "\"\nretry_max_ms = 200\n" + uplink_lines + "\n";
}

class AssistantUplinkTest : public ::testing::Test {
 protected:
  std::string url() const { return "ws://127.0.0.1:" + std::to_string(backend_.port()) + "/xiaozhi/v1/?board=1"; }

  // Writes the config (with `uplink_lines` in [uplink.assistant]) and starts mcpud.
  void start(const std::string& uplink_lines = "", const std::string& more_tables = "") {
    config_path_ = daemon_.write_file("mcpud.toml", assistant_config(url(), uplink_lines, more_tables));
    ASSERT_TRUE(daemon_.start({"--config", config_path_}));
  }
  // Rewrites the config and sends SIGHUP.
  void reload(const std::string& uplink_lines, const std::string& more_tables) {
    daemon_.write_file("mcpud.toml", assistant_config(url(), uplink_lines, more_tables));
    daemon_.signal(SIGHUP);
  }

  // The next connection, with the hello exchanged under `session_id`.
  std::optional<AssistantPeer> connect(const std::string& session_id = "session-1") {
    auto connection = backend_.accept();
    if (!connection) {
      ADD_FAILURE() << "mcpud did not connect; its log:\n" << daemon_.log();
      return std::nullopt;
    }
    AssistantPeer peer(connection);
    if (!peer.handshake(session_id)) return std::nullopt;
    return peer;
  }
  // connect() and initialize, with a vision capability.
  std::optional<AssistantPeer> initialized(const std::string& session_id = "session-1") {
    auto peer = connect(session_id);
    if (peer) {
      peer->result(
          "initialize",
          {{"protocolVersion", "2024-11-05"},
           {"capabilities", {{"vision", {{"url", "http://vision.example/upload"}, {"token", "vision-secret"}}}}}});
    }
    return peer;
  }

  WsBackend backend_;  // declared first: outlives the daemon and the connections
  DaemonProcess daemon_;
  std::string config_path_;
};

}  // namespace mcpud::it
