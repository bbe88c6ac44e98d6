// SPDX-License-Identifier: MIT
// What an MCP-over-HTTP session keeps while its client has no event stream open,
// through the real binary and raw HTTP/1.1: a change notified many times waits
// once, so a session its client left does not grow with every change.
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <regex>
#include <string>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {

using namespace std::chrono_literals;

namespace {

// Writes `request` and returns what comes back until the server closes or `wait` passes.
std::string exchange_for(int port, const std::string& request, std::chrono::milliseconds wait) {
  auto client = LineClient::connect_tcp(port);
  if (!client || !client->send_raw(request)) return "";
  std::string received;
  const Deadline deadline = wait;
  pollfd readable{client->fd(), POLLIN, 0};
  while (!deadline.expired() && ::poll(&readable, 1, deadline.poll_ms()) > 0) {
    char buffer[4096];
    const auto got = ::read(client->fd(), buffer, sizeof buffer);
    if (got <= 0) break;
    received.append(buffer, static_cast<std::size_t>(got));
  }
  return received;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(HttpBacklog, ToolsChangedManyTimesWhileNoStreamIsOpenWaitsOnce) {
  DaemonProcess daemon;
  const auto config = [&](const std::string& mcp) {
    return daemon.write_file("mcpud.toml", sim_config_toml() + "\n[http]\nlisten = \"127.0.0.1:0\"\n" + mcp);
  };
  ASSERT_TRUE(daemon.start({"--config", config("")}));
  const auto listening = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  ASSERT_TRUE(listening) << daemon.log();
  const int port = std::stoi(listening->at(1));

  const auto initialized =
      exchange_for(port,
                   "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   "Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: " +
                       std::to_string(kInitialize.size()) + "\r\n\r\n" + kInitialize,
                   5s);
  std::smatch id;
  ASSERT_TRUE(std::regex_search(initialized, id, std::regex(R"(Mcp-Session-Id: ([^\r]+))", std::regex::icase)))
      << initialized;

  // Four reloads, each changing what is listed: four tools/list_changed for the session.
  for (int reload = 1; reload <= 4; ++reload) {
    config(reload % 2 ? "[mcp]\nuser_only_tools = [\"gpio_read\"]\n" : "");
    daemon.signal(SIGHUP);
    ASSERT_TRUE(daemon.wait_for_log("reloaded:", 5s, reload));
  }

  const auto stream = exchange_for(port,
                                   "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                                   "MCP-Protocol-Version: 2025-06-18\r\nMcp-Session-Id: " +
                                       id[1].str() + "\r\n\r\n",
                                   1500ms);
  EXPECT_EQ(count_of(stream, "notifications/tools/list_changed"), 1u) << stream;
}

}  // namespace
}  // namespace mcpud::it
