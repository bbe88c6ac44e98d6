// SPDX-License-Identifier: MIT
// The dashboard's safety controls through the real binary and raw HTTP/1.1:
// a call that waits for approval is decided with [http] dashboard_token and
// never with the MCP token an agent holds; what anyone may read of it
// (mcpu://daemon/safety) leaves the arguments out.
#include <poll.h>
#include <unistd.h>

#include <regex>
#include <string>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

// A namespace of its own: the integration tests build as unity sources.
namespace mcpud::it::http_safety {
namespace {

constexpr std::string_view kDashboardKey = "potting-shed-91c4";

// mcpud with a heater whose every write waits for approval, MCP/U on TCP and HTTP.
std::pair<int, int> start_board(DaemonProcess& daemon) {
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml({.extra_pins = R"(
[[pins]]
name = "heater"
pin = 50
type = "digital_output"
safe_value = false
confirm = true
)"}) + "\n[http]\nlisten = \"127.0.0.1:0\"\ntoken = \"mcp-token\"\ndashboard_token = \"" +
                                                          std::string(kDashboardKey) + "\"\n");
  const int tcp_port = daemon.start_tcp({"--config", config});
  const auto http_port = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  return {tcp_port, http_port ? std::stoi(http_port->at(1)) : 0};
}

// One request on a connection of its own; the whole response.
std::string exchange(int port, const std::string& method, const std::string& path, std::string_view key,
                     const std::string& body = "") {
  auto client = LineClient::connect_tcp(port);
  if (!client) return "";
  std::string request = method + " " + path +
                        " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: Bearer " +
                        std::string(key) + "\r\n";
  if (!body.empty())
    request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  client->send_raw(request + "\r\n" + body);
  std::string response;
  pollfd readable{client->fd(), POLLIN, 0};
  for (Deadline deadline = 5s; ::poll(&readable, 1, deadline.poll_ms()) > 0;) {
    char buffer[4096];
    const auto got = ::read(client->fd(), buffer, sizeof buffer);
    if (got <= 0) break;
    response.append(buffer, static_cast<std::size_t>(got));
  }
  return response;
}

json body_of(const std::string& response) {
  const auto start = response.find("\r\n\r\n");
  return json::parse(start == std::string::npos ? "" : response.substr(start + 4), nullptr, false);
}

TEST(HttpSafety, AWaitingCallIsDecidedWithTheDashboardKeyAndNeverWithTheMcpToken) {
  DaemonProcess daemon;
  const auto [tcp_port, http_port] = start_board(daemon);
  ASSERT_TRUE(tcp_port != 0 && http_port != 0) << daemon.log();
  auto agent = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(agent && agent->send_line(request_text("gpio_write", {{"pin", 50}, {"value", true}}, 1)));
  ASSERT_TRUE(daemon.wait_for_log("approval 1: gpio_write"));

  EXPECT_TRUE(contains(exchange(http_port, "GET", "/api/safety", "mcp-token"), "HTTP/1.1 401"));
  EXPECT_TRUE(contains(exchange(http_port, "POST", "/api/safety/approve", "mcp-token", R"({"id":1})"), "HTTP/1.1 401"));
  const auto state = body_of(exchange(http_port, "GET", "/api/safety", kDashboardKey));
  ASSERT_EQ(state["pending"].size(), 1u) << state;
  EXPECT_EQ(state["pending"][0]["arguments"], json({{"pin", 50}, {"value", true}}));

  // What any MCP client may read says that a call waits, not with what.
  auto reader = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(reader);
  const json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  const auto shown = reader->request({{"jsonrpc", "2.0"},
                                      {"id", 5},
                                      {"method", "resources/read"},
                                      {"params", {{"uri", "mcpu://daemon/safety"}, {"_meta", meta}}}});
  const auto text = shown["result"]["contents"][0].value("text", "");
  EXPECT_TRUE(contains(text, "\"tool\":\"gpio_write\"")) << shown;
  EXPECT_FALSE(contains(text, "\"arguments\"")) << text;

  EXPECT_TRUE(contains(exchange(http_port, "POST", "/api/safety/deny", kDashboardKey, R"({"id":1})"), "HTTP/1.1 200"));
  const auto answer = agent->read_line();
  ASSERT_TRUE(answer);
  EXPECT_TRUE(contains(*answer, "APPROVAL_DENIED")) << *answer;
  EXPECT_TRUE(contains(*answer, "dashboard 127.0.0.1"));
}

TEST(HttpSafety, GuessingTheKeyIsSlowedToTenTriesAMinute) {
  DaemonProcess daemon;
  const auto [tcp_port, http_port] = start_board(daemon);
  ASSERT_NE(http_port, 0) << daemon.log();
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE(contains(exchange(http_port, "GET", "/api/safety", "guess-" + std::to_string(i)), "HTTP/1.1 401"));
  const auto slowed = exchange(http_port, "GET", "/api/safety", kDashboardKey);
  EXPECT_TRUE(contains(slowed, "HTTP/1.1 429")) << slowed;
  EXPECT_TRUE(contains(slowed, "Retry-After: ")) << slowed;
  EXPECT_FALSE(contains(exchange(http_port, "GET", "/mcp", "mcp-token"), "HTTP/1.1 429"))
      << "the MCP door is slowed too";
}

}  // namespace
}  // namespace mcpud::it::http_safety
