// SPDX-License-Identifier: MIT
// MCP sessions and headers of the Streamable HTTP front door, through the real
// binary and raw HTTP/1.1: hosts that never DELETE cost their own oldest
// session, not every host's access; a refusal that remains says when to try
// again; ambiguous credentials and bad ports in Host and Origin are 400s.
#include <poll.h>
#include <unistd.h>

#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

// A namespace of its own: the integration tests build as unity sources, and
// http_host_test.cpp has helpers of the same names.
namespace mcpud::it::http_sessions {
namespace {

// mcpud serving HTTP on a kernel-chosen loopback port with the given extra
// [http] lines; returns the port.
int start_http(DaemonProcess& daemon, const std::string& http_lines = "", const std::string& extra_pins = "") {
  const auto config = daemon.write_file(
      "mcpud.toml", sim_config_toml({.extra_pins = extra_pins}) + "\n[http]\nlisten = \"127.0.0.1:0\"\n" + http_lines);
  if (!daemon.start({"--config", config})) return 0;
  const auto port = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  EXPECT_TRUE(port) << daemon.log();
  return port ? std::stoi(port->at(1)) : 0;
}

// Everything the server sends on `client` until it closes.
std::string read_until_closed(LineClient& client, Deadline deadline = 5s) {
  std::string response;
  pollfd readable{client.fd(), POLLIN, 0};
  while (::poll(&readable, 1, deadline.poll_ms()) > 0) {
    char buffer[4096];
    const auto got = ::read(client.fd(), buffer, sizeof buffer);
    if (got <= 0) break;
    response.append(buffer, static_cast<std::size_t>(got));
  }
  return response;
}

// A POST /mcp that asks the server to close after answering.
std::string post_text(const std::string& body, const std::string& headers = "", const std::string& host = "localhost") {
  return "POST /mcp HTTP/1.1\r\nHost: " + host +
         "\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\nConnection: close\r\n" +
         headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string round_trip(int port, const std::string& request) {
  auto client = LineClient::connect_tcp(port);
  if (!client || !client->send_raw(request)) return "(cannot talk to port " + std::to_string(port) + ")";
  return read_until_closed(*client);
}

std::string status_line(const std::string& response) { return response.substr(0, response.find('\r')); }

// The value of a response header (names in any case), or nothing.
std::optional<std::string> header_of(const std::string& response, const std::string& name) {
  std::smatch found;
  if (!std::regex_search(response, found, std::regex("\r\n" + name + ": ([^\r]*)\r\n", std::regex::icase)))
    return std::nullopt;
  return found[1].str();
}

// A new session's id, or "" when initialize did not open one.
std::string initialize(int port) {
  return header_of(round_trip(port, post_text(kInitialize)), "Mcp-Session-Id").value_or("");
}

std::string ping(int port, const std::string& session) {
  return status_line(round_trip(
      port, post_text(R"({"jsonrpc":"2.0","id":7,"method":"ping"})", "Mcp-Session-Id: " + session + "\r\n")));
}

TEST(HttpSessions, HostsThatNeverDeleteEndTheirOwnLeastRecentlyUsedSession) {
  DaemonProcess daemon;
  const int port = start_http(daemon, "max_sessions_per_address = 4\n");
  ASSERT_NE(port, 0);
  std::vector<std::string> sessions;
  for (int i = 0; i < 4; ++i) sessions.push_back(initialize(port));
  // The first is used again: the second is now the least recently used.
  EXPECT_EQ(ping(port, sessions[0]), "HTTP/1.1 200 OK");
  const auto fifth = initialize(port);
  ASSERT_FALSE(fifth.empty()) << "a host that never DELETEs was refused a session";
  EXPECT_EQ(ping(port, sessions[1]), "HTTP/1.1 404 Not Found") << "the least recently used session lives on";
  for (const auto& live : {sessions[0], sessions[2], sessions[3], fifth})
    EXPECT_EQ(ping(port, live), "HTTP/1.1 200 OK");
  EXPECT_TRUE(daemon.wait_for_log("ended MCP session " + sessions[1] + " of 127.0.0.1, the least recently used"));

  // Many more, as a host restarted over and over would open: never refused.
  for (int i = 0; i < 40; ++i) ASSERT_FALSE(initialize(port).empty()) << "initialize " << i << " refused";
}

TEST(HttpSessions, ASessionWithACallPendingIsNotEndedAndTheRefusalSaysWhenToRetry) {
  DaemonProcess daemon;
  // A thermometer whose every read waits for a 750 ms conversion.
  const int port = start_http(daemon, "max_sessions_per_address = 1\n", R"(
[[pins]]
name = "tank"
pin = 130
type = "sensor_input"
onewire = { id = "28-00000a1b2c3d" }
)");
  ASSERT_NE(port, 0);
  const auto busy = initialize(port);
  ASSERT_FALSE(busy.empty());
  auto reading = LineClient::connect_tcp(port);
  ASSERT_TRUE(reading);
  ASSERT_TRUE(reading->send_raw(post_text(
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sensor_read","arguments":{"name":"tank"}}})",
      "Mcp-Session-Id: " + busy + "\r\n")));
  std::this_thread::sleep_for(200ms);  // the read has begun: its conversion takes 750 ms

  const auto refused = round_trip(port, post_text(kInitialize));
  EXPECT_EQ(status_line(refused), "HTTP/1.1 503 Service Unavailable") << refused;
  EXPECT_EQ(header_of(refused, "Retry-After"), "5");
  EXPECT_TRUE(contains(refused, "Too many MCP sessions from 127.0.0.1 with a call pending (limit 1"));

  const auto answered = read_until_closed(*reading);
  EXPECT_EQ(status_line(answered), "HTTP/1.1 200 OK") << "the pending call of a full address was cut off";
  EXPECT_TRUE(contains(answered, "temperature"));
  EXPECT_FALSE(initialize(port).empty()) << "the call answered: its session is idle and makes room";
}

// mcpud serving MCP/U on TCP and Streamable HTTP, each on a kernel-chosen
// port, with `limits` in [limits]; the ports are 0 when it did not start.
std::pair<int, int> start_tcp_and_http(DaemonProcess& daemon, const std::string& limits) {
  const auto config =
      daemon.write_file("mcpud.toml", sim_config_toml({.limits = limits}) + "\n[http]\nlisten = \"127.0.0.1:0\"\n");
  const int tcp_port = daemon.start_tcp({"--config", config});
  const auto http_port = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  return {tcp_port, http_port ? std::stoi(http_port->at(1)) : 0};
}

// Requests for one MCP session.
std::string session_request(const std::string& session, const std::string& method, const std::string& params) {
  return post_text(R"({"jsonrpc":"2.0","id":3,"method":")" + method + R"(","params":)" + params + "}",
                   "Mcp-Session-Id: " + session + "\r\n");
}

// `count` gpio_writes, as one batch line.
std::string gpio_write_batch(int count) {
  json batch = json::array();
  for (int i = 0; i < count; ++i)
    batch.push_back(json::parse(request_text("gpio_write", {{"pin", 2}, {"value", i % 2 == 0}}, i)));
  return batch.dump();
}

// Sessions subscribed to the activity, each with an event stream its client
// never reads (a 4 KiB receive buffer), while a TCP client calls fast; then
// the streams' clients leave and the sessions are DELETEd. What the streams
// held is given back although no request comes after.
TEST(HttpStreams, UnreadStreamsAreBoundedAndWhatTheyHeldIsGivenBackWhenTheyEnd) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "measures glibc's heap; this build uses AddressSanitizer's allocator";
#endif
  constexpr int kStreams = 10;
  DaemonProcess daemon;
  // A queue bound above what the load makes: the streams stay open until their clients leave.
  const auto [tcp_port, port] = start_tcp_and_http(daemon, "client_queue_bytes = 33554432");
  ASSERT_TRUE(tcp_port != 0 && port != 0);
  std::this_thread::sleep_for(1500ms);  // the readiness probe's memory is trimmed
  const long before = daemon.status_field("VmRSS");

  std::vector<std::string> sessions;
  std::vector<LineClient> streams;
  for (int i = 0; i < kStreams; ++i) {
    sessions.push_back(initialize(port));
    ASSERT_TRUE(contains(round_trip(port, session_request(sessions.back(), "resources/subscribe",
                                                          R"({"uri":"mcpu://daemon/activity"})")),
                         "HTTP/1.1 200"));
    auto stream = LineClient::connect_tcp(port, 5s, /*receive_buffer=*/4096);
    ASSERT_TRUE(stream);
    ASSERT_TRUE(
        stream->send_raw("GET /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                         "Mcp-Session-Id: " +
                         sessions.back() + "\r\n\r\n"));
    streams.push_back(std::move(*stream));
  }
  auto caller = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(caller);
  const auto batch = gpio_write_batch(500);
  for (int round = 0; round < 40; ++round) {
    ASSERT_TRUE(caller->send_line(batch));
    ASSERT_TRUE(caller->read_line(30s)) << "the caller got no reply while the streams were unread";
  }
  const long peak = daemon.status_field("VmRSS");
  ASSERT_GT(peak - before, 4096) << "the unread streams held less than 4 MiB: the test tests nothing";
  std::this_thread::sleep_for(2s);  // the load is over: the daemon trims what it can while the streams last

  streams.clear();
  for (const auto& session : sessions) {
    auto deleted = LineClient::connect_tcp(port);
    ASSERT_TRUE(deleted && deleted->send_raw("DELETE /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                                             "Mcp-Session-Id: " +
                                             session + "\r\n\r\n"));
    EXPECT_TRUE(contains(read_until_closed(*deleted), "HTTP/1.1 200"));
  }
  const long bound = before + (peak - before) / 4;
  long after = peak;
  EXPECT_TRUE(eventually([&] { return (after = daemon.status_field("VmRSS")) <= bound; }, 10s, 200ms))
      << "RSS " << before << " kB before, " << peak << " kB with the unread streams, still " << after
      << " kB after they ended (bound " << bound << " kB)";
}

// A stream whose client stops reading is cut once more than
// client_queue_bytes wait for it; other clients are served meanwhile.
TEST(HttpStreams, AStreamItsClientStoppedReadingIsCutPastTheQueueBound) {
  DaemonProcess daemon;
  const auto [tcp_port, port] = start_tcp_and_http(daemon, "client_queue_bytes = 262144");
  ASSERT_TRUE(tcp_port != 0 && port != 0);
  const auto session = initialize(port);
  ASSERT_TRUE(
      contains(round_trip(port, session_request(session, "resources/subscribe", R"({"uri":"mcpu://daemon/activity"})")),
               "HTTP/1.1 200"));
  auto stream = LineClient::connect_tcp(port, 5s, /*receive_buffer=*/4096);
  ASSERT_TRUE(stream && stream->send_raw("GET /mcp HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                                         "Mcp-Session-Id: " +
                                         session + "\r\n\r\n"));
  auto caller = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(caller);
  const auto batch = gpio_write_batch(500);
  // About 200 bytes per call: 2,000 calls pass the bound even with the kernel's buffers full.
  for (int round = 0; round < 20 && daemon.count_in_log("event stream dropped") == 0; ++round) {
    ASSERT_TRUE(caller->send_line(batch));
    ASSERT_TRUE(caller->read_line(30s));
  }
  EXPECT_TRUE(daemon.wait_for_log("event stream dropped", 5s)) << "an unread stream was never cut";
  EXPECT_TRUE(stream->wait_closed(10s));
  EXPECT_EQ(ping(port, session), "HTTP/1.1 200 OK") << "the session goes on; its client may open a new stream";
}

TEST(HttpHeaders, TwoAuthorizationHeadersAreABadRequest) {
  DaemonProcess daemon;
  const int port = start_http(daemon, "token = \"s3cret\"\n");
  ASSERT_NE(port, 0);
  const auto good = round_trip(port, post_text(kInitialize, "Authorization: Bearer s3cret\r\n"));
  EXPECT_EQ(status_line(good), "HTTP/1.1 200 OK");
  for (const std::string second : {"Bearer s3cret", "Bearer wrong"}) {
    const auto twice =
        round_trip(port, post_text(kInitialize, "Authorization: Bearer s3cret\r\nAuthorization: " + second + "\r\n"));
    EXPECT_EQ(status_line(twice), "HTTP/1.1 400 Bad Request") << second;
    EXPECT_TRUE(contains(twice, "More than one Authorization header")) << twice;
    EXPECT_FALSE(header_of(twice, "Mcp-Session-Id")) << "a session was opened";
  }
}

TEST(HttpHeaders, ABadPortInHostOrOriginIsABadRequestNamingIt) {
  DaemonProcess daemon;
  const int port = start_http(daemon);
  ASSERT_NE(port, 0);
  for (const std::string host : {"127.0.0.1:0", "localhost:00", "[::1]:0"}) {
    const auto response = round_trip(port, post_text(kInitialize, "", host));
    EXPECT_EQ(status_line(response), "HTTP/1.1 400 Bad Request") << host;
    EXPECT_TRUE(contains(response, "Malformed Host header: " + host)) << host;
  }
  for (const std::string origin : {"http://127.0.0.1:99999", "http://localhost:0", "http://[::1]:65536",
                                   "https://localhost:", "http://localhost/path", "localhost"}) {
    const auto response = round_trip(port, post_text(kInitialize, "Origin: " + origin + "\r\n"));
    EXPECT_EQ(status_line(response), "HTTP/1.1 400 Bad Request") << origin;
    EXPECT_TRUE(contains(response, "Malformed Origin header: '" + origin + "'")) << origin << response;
  }
  for (const std::string origin : {"http://localhost:65535", "https://127.0.0.1:1", "http://[::1]"}) {
    EXPECT_EQ(status_line(round_trip(port, post_text(kInitialize, "Origin: " + origin + "\r\n"))), "HTTP/1.1 200 OK")
        << origin;
  }
  for (const std::string origin : {"null", "http://evil.example:8080", "chrome-extension://abc"}) {
    EXPECT_EQ(status_line(round_trip(port, post_text(kInitialize, "Origin: " + origin + "\r\n"))),
              "HTTP/1.1 403 Forbidden")
        << origin;
  }
  EXPECT_TRUE(daemon.running());
}

}  // namespace
}  // namespace mcpud::it::http_sessions
