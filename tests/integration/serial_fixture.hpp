// SPDX-License-Identifier: MIT
// The fixture of the serial tool tests: mcpud with a [serial] table that lists
// and allows the test's ptys, one TCP client, and helpers to open sessions and
// wait on their byte counters.
#pragma once

#include <string>
#include <vector>

#include "support/configs.hpp"
#include "support/fixtures.hpp"
#include "support/serial_peer.hpp"

namespace mcpud::it {

class SerialTest : public ::testing::Test {
 protected:
  // What the [serial] table says besides `ports` (the test's ptys).
  struct Setup {
    std::string lines;            // more lines of the table
    bool allow_test_ptys = true;  // allowed_ports = ["<temp dir>/tty*"]
    // The observer connection (session_info) sees the sessions the client opens.
    bool share_sessions = true;
    std::vector<std::string> args;  // on mcpud's command line
  };

  // Starts mcpud with `serial_lines` added to its [serial] table.
  void start(const std::string& serial_lines = "", std::vector<std::string> args = {}) {
    start_with({.lines = serial_lines, .args = std::move(args)});
  }

  void start_with(Setup setup) {
    const auto dir = daemon_.temp_dir().path().string();
    std::string table = "\n[serial]\nports = [\"" + dir + "/tty*\"]\n" + setup.lines + "\n";
    if (setup.allow_test_ptys) table += "allowed_ports = [\"" + dir + "/tty*\"]\n";
    if (setup.share_sessions) table += "share_sessions = true\n";
    auto args = std::move(setup.args);
    args.insert(args.begin(), {"--config", daemon_.write_file("mcpud.toml", sim_config_toml() + table)});
    const int port = daemon_.start_tcp(args);
    ASSERT_NE(port, 0);
    client_ = LineClient::connect_tcp(port);
    ASSERT_TRUE(client_.has_value());
    observer_ = LineClient::connect_tcp(port);
    ASSERT_TRUE(observer_.has_value());
    port_ = port;
  }

  std::filesystem::path link(const std::string& name) { return daemon_.temp_dir().path() / name; }
  LineClient& client() { return *client_; }

  json call(const std::string& method, const json& params) { return client_->call(method, params, next_id_++, 15s); }
  json result(const std::string& method, const json& params) {
    const json reply = call(method, params);
    EXPECT_TRUE(reply.contains("result")) << method << ": " << reply.dump();
    return reply.value("result", json::object());
  }

  // Opens a session on the peer's link; returns its id ("" with a test failure).
  std::string connect(const SerialPeer& peer, json params = json::object()) {
    params["port"] = peer.link();
    const json reply = result("serial_connect", params);
    return reply.value("session_id", "");
  }

  json session_info(const std::string& id) {
    // On a second connection, so it works while a read waits on the first.
    const json listing = observer_->result("serial_list_sessions", json::object(), 15s);  // outlives the loop
    for (const auto& s : listing["sessions"]) {
      if (s["session_id"] == id) return s;
    }
    return json::object();
  }

  // Waits until the session has received at least `bytes` from its port.
  bool wait_received(const std::string& id, std::uint64_t bytes, Deadline deadline = 15s) {
    return eventually([&] { return session_info(id).value("bytes_received", std::uint64_t{0}) >= bytes; }, deadline);
  }

  // The device sends `bytes`; returns once mcpud has received them all.
  bool device_sends(SerialPeer& peer, const std::string& id, std::string_view bytes) {
    const auto before = session_info(id).value("bytes_received", std::uint64_t{0});
    return peer.write(bytes) && wait_received(id, before + bytes.size());
  }

  // Sends a request now and returns its id; its reply is read later with reply_to().
  int send_request(const std::string& method, const json& params) {
    const int id = next_id_++;
    EXPECT_TRUE(client_->send_line(request_text(method, params, id)));
    return id;
  }
  json reply_to(int id, Deadline deadline = 15s) {
    const auto line = client_->read_line(deadline);
    if (!line) return json();
    json reply = json::parse(*line, nullptr, false);
    EXPECT_EQ(reply.value("id", -1), id) << *line;
    return reply;
  }

  DaemonProcess daemon_;
  std::optional<LineClient> client_;
  std::optional<LineClient> observer_;
  int port_ = 0;
  int next_id_ = 1;
};

}  // namespace mcpud::it
