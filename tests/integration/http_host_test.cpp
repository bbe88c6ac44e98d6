// SPDX-License-Identifier: MIT
// The Host rule of the Streamable HTTP front door, through the real binary and
// raw HTTP/1.1 on a socket: on a loopback address only loopback names pass
// (against DNS rebinding), elsewhere any name or those of [http] allowed_hosts;
// a missing, second or malformed Host is a 400 naming what is wrong.
#include <poll.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

// mcpud serving HTTP on `listen` (port 0) with the given extra [http] lines; returns the port.
int start_http(DaemonProcess& daemon, const std::string& listen, const std::string& http_lines = "") {
  const auto config =
      daemon.write_file("mcpud.toml", sim_config_toml() + "\n[http]\nlisten = \"" + listen + "\"\n" + http_lines);
  if (!daemon.start({"--config", config})) return 0;
  const auto port = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  EXPECT_TRUE(port) << daemon.log();
  return port ? std::stoi(port->at(1)) : 0;
}

// Sends one raw request (it asks the server to close) and returns the whole
// response, read until the server closes.
std::string http_exchange(int port, const std::string& request) {
  auto client = LineClient::connect_tcp(port);
  if (!client || !client->send_raw(request)) return "(cannot talk to port " + std::to_string(port) + ")";
  std::string response;
  const Deadline deadline = 5s;
  pollfd readable{client->fd(), POLLIN, 0};
  while (::poll(&readable, 1, deadline.poll_ms()) > 0) {
    char buffer[4096];
    const auto got = ::read(client->fd(), buffer, sizeof buffer);
    if (got <= 0) break;
    response.append(buffer, static_cast<std::size_t>(got));
  }
  return response;
}

std::string get_page(int port, const std::string& host_headers) {
  return http_exchange(port, "GET / HTTP/1.1\r\n" + host_headers + "Connection: close\r\n\r\n");
}

std::string post_initialize(int port, const std::string& host) {
  return http_exchange(port, "POST /mcp HTTP/1.1\r\nHost: " + host +
                                 "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                                 "Connection: close\r\nContent-Length: " +
                                 std::to_string(kInitialize.size()) + "\r\n\r\n" + kInitialize);
}

std::string status_line(const std::string& response) { return response.substr(0, response.find('\r')); }

TEST(HttpHost, OnLoopbackOnlyLoopbackNamesAreServed) {
  DaemonProcess daemon;
  const int port = start_http(daemon, "127.0.0.1:0");
  ASSERT_NE(port, 0);
  const auto with_port = [&](const std::string& name) { return name + ":" + std::to_string(port); };
  for (const std::string& host : std::vector<std::string>{with_port("localhost"), with_port("LocalHost"),
                                                          with_port("127.0.0.1"), with_port("[::1]"), "localhost"}) {
    EXPECT_EQ(status_line(get_page(port, "Host: " + host + "\r\n")), "HTTP/1.1 200 OK") << host;
  }
  const auto initialized = post_initialize(port, with_port("127.0.0.1"));
  EXPECT_EQ(status_line(initialized), "HTTP/1.1 200 OK");
  EXPECT_TRUE(contains(initialized, R"("protocolVersion")"));

  // A page of evil.example whose name now resolves to 127.0.0.1 (DNS rebinding).
  for (const auto& response :
       {get_page(port, "Host: " + with_port("evil.example") + "\r\n"), post_initialize(port, with_port("evil.example")),
        post_initialize(port, "localhost.evil.example")}) {
    EXPECT_EQ(status_line(response), "HTTP/1.1 421 Misdirected Request");
    EXPECT_TRUE(contains(response, "Host not allowed: "));
    EXPECT_FALSE(contains(response, "protocolVersion"));
  }
}

TEST(HttpHost, AMissingSecondOrMalformedHostIsABadRequestNamingWhy) {
  DaemonProcess daemon;
  const int port = start_http(daemon, "127.0.0.1:0");
  ASSERT_NE(port, 0);
  const auto missing = get_page(port, "");
  EXPECT_EQ(status_line(missing), "HTTP/1.1 400 Bad Request");
  EXPECT_TRUE(contains(missing, "Missing Host header"));
  const auto twice = get_page(port, "Host: localhost\r\nHost: evil.example\r\n");
  EXPECT_EQ(status_line(twice), "HTTP/1.1 400 Bad Request");
  EXPECT_TRUE(contains(twice, "More than one Host header"));
  for (const std::string bad :
       {"evil.example@localhost", "localhost:80@evil.example", "localhost:99999", "localhost/mcp", "[::1"}) {
    const auto response = get_page(port, "Host: " + bad + "\r\n");
    EXPECT_EQ(status_line(response), "HTTP/1.1 400 Bad Request") << bad;
    EXPECT_TRUE(contains(response, "Malformed Host header: " + bad)) << bad;
  }
  EXPECT_TRUE(daemon.running());
}

TEST(HttpHost, OnEveryAddressWithoutAllowedHostsAnyWellFormedNameIsServed) {
  DaemonProcess daemon;
  const int port = start_http(daemon, "0.0.0.0:0");
  ASSERT_NE(port, 0);
  EXPECT_EQ(status_line(get_page(port, "Host: raspberrypi.local:8080\r\n")), "HTTP/1.1 200 OK");
  EXPECT_EQ(status_line(post_initialize(port, "192.168.1.7")), "HTTP/1.1 200 OK");
  EXPECT_EQ(status_line(get_page(port, "Host: me@raspberrypi.local\r\n")), "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(status_line(get_page(port, "")), "HTTP/1.1 400 Bad Request");
}

TEST(HttpHost, AllowedHostsNarrowEveryAddressToThemAndLoopbackNames) {
  DaemonProcess daemon;
  const int port = start_http(daemon, "0.0.0.0:0", "allowed_hosts = [\"pi.local\", \"proxy.example:443\"]\n");
  ASSERT_NE(port, 0);
  for (const std::string host : {"pi.local", "PI.local:8080", "proxy.example:443", "localhost"}) {
    EXPECT_EQ(status_line(post_initialize(port, host)), "HTTP/1.1 200 OK") << host;
  }
  for (const std::string host : {"evil.example", "proxy.example", "raspberrypi.local"}) {
    const auto response = get_page(port, "Host: " + host + "\r\n");
    EXPECT_EQ(status_line(response), "HTTP/1.1 421 Misdirected Request") << host;
    EXPECT_TRUE(contains(response, "Host not allowed: " + host)) << host;
  }
}

TEST(HttpHost, AnAllowedHostThatIsNoHostNameIsAConfigErrorNamingIt) {
  DaemonProcess daemon;
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml() +
                                                          "\n[http]\nlisten = \"127.0.0.1:0\"\n"
                                                          "allowed_hosts = [\"pi.local\", \"http://pi.local\"]\n");
  ASSERT_TRUE(daemon.start({"--check-config", config}));
  EXPECT_EQ(daemon.wait_exit(), 1);
  EXPECT_TRUE(contains(daemon.log(), "http.allowed_hosts[1]: 'http://pi.local' is not a host name"));
}

}  // namespace
}  // namespace mcpud::it
