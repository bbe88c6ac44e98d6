// SPDX-License-Identifier: MIT
// subscriptions/listen over Streamable HTTP (MCP 2026-07-28), through the real
// binary and raw HTTP/1.1: the POST's response is the stream, acknowledged
// first, then only what the listen asked for, each event tagged with its id;
// every listen holds a connection the address's limit bounds, and gives it back
// when its client closes it.
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

// A namespace of its own: the integration tests build as unity sources.
namespace mcpud::it::http_listen {
namespace {

constexpr std::string_view kModern = "2026-07-28";

// mcpud serving MCP/U on TCP and Streamable HTTP, with `limits` in [limits].
std::pair<int, int> start_tcp_and_http(DaemonProcess& daemon, const std::string& limits = "") {
  const auto config =
      daemon.write_file("mcpud.toml", sim_config_toml({.limits = limits}) + "\n[http]\nlisten = \"127.0.0.1:0\"\n");
  const int tcp_port = daemon.start_tcp({"--config", config});
  const auto http_port = daemon.wait_for_log(std::regex(R"(\[http\] listening on \S+:(\d+) )"));
  return {tcp_port, http_port ? std::stoi(http_port->at(1)) : 0};
}

// A modern POST of subscriptions/listen with id "watch" and `filter`.
std::string listen_request(const json& filter) {
  const json body = {{"jsonrpc", "2.0"},
                     {"id", "watch"},
                     {"method", "subscriptions/listen"},
                     {"params",
                      {{"notifications", filter},
                       {"_meta",
                        {{"io.modelcontextprotocol/protocolVersion", kModern},
                         {"io.modelcontextprotocol/clientCapabilities", json::object()}}}}}};
  const auto text = body.dump();
  return "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: " +
         std::string(kModern) +
         "\r\nMcp-Method: subscriptions/listen\r\nContent-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text;
}

// A listen stream as its client reads it: the response head, then its events.
struct ListenStream {
  LineClient client;
  std::string head;               // status line and headers
  std::vector<json> events;       // every SSE data line, parsed
  std::vector<std::string> junk;  // lines that are neither (there should be none)

  // Reads until an event satisfies `wanted`; false when none does in time.
  template <typename Predicate>
  bool read_until(Predicate wanted, Deadline deadline = 5s) {
    while (auto line = client.read_line(deadline)) {
      if (line->starts_with("data: ")) {
        events.push_back(json::parse(line->substr(6), nullptr, false));
        if (wanted(events.back())) return true;
      } else if (!line->empty() && !line->starts_with("event: ")) {
        junk.push_back(*line);
      }
    }
    return false;
  }
};

// Opens a listen and reads its head; nullopt when the connection was refused or no head came.
std::optional<ListenStream> open_listen(int port, const json& filter) {
  auto client = LineClient::connect_tcp(port);
  if (!client || !client->send_raw(listen_request(filter))) return std::nullopt;
  ListenStream stream{std::move(*client), {}, {}, {}};
  while (auto line = stream.client.read_line()) {
    if (*line == "\r") return stream;
    stream.head += *line + "\n";
  }
  return std::nullopt;
}

bool is_method(const json& event, std::string_view method) { return event.value("method", "") == method; }

bool updates(const json& event, std::string_view uri) {
  return is_method(event, "notifications/resources/updated") && event["params"].value("uri", "") == uri;
}

TEST(HttpListen, TheResponseIsAStreamAcknowledgedFirstThenOnlyWhatTheListenAskedFor) {
  DaemonProcess daemon;
  const auto [tcp_port, port] = start_tcp_and_http(daemon);
  ASSERT_TRUE(tcp_port != 0 && port != 0);
  auto stream = open_listen(port, {{"resourceSubscriptions", {"mcpu://pins/led", "mcpu://pins/no_such_pin"}}});
  ASSERT_TRUE(stream) << daemon.log();
  EXPECT_TRUE(contains(stream->head, "HTTP/1.1 200 OK"));
  EXPECT_TRUE(contains(stream->head, "Content-Type: text/event-stream"));
  EXPECT_TRUE(contains(stream->head, "X-Accel-Buffering: no"));
  ASSERT_TRUE(stream->read_until([](const json&) { return true; }));
  const auto& ack = stream->events.front();
  ASSERT_TRUE(is_method(ack, "notifications/subscriptions/acknowledged")) << ack;
  EXPECT_EQ(ack["params"]["notifications"], json({{"resourceSubscriptions", {"mcpu://pins/led"}}}))
      << "a URI that names no resource is left out";

  // Each write moves the LED and the input that loops back from it; only the LED was asked for.
  auto caller = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(caller);
  for (const bool value : {true, false}) {
    EXPECT_FALSE(caller->result("gpio_write", {{"pin", 2}, {"value", value}}).is_null());
    ASSERT_TRUE(stream->read_until([](const json& e) { return updates(e, "mcpu://pins/led"); }))
        << "no update of the LED on the listen stream";
  }
  for (const auto& event : stream->events) {
    EXPECT_EQ(event["params"]["_meta"].value("io.modelcontextprotocol/subscriptionId", ""), "watch") << event;
    EXPECT_FALSE(updates(event, "mcpu://pins/led_sense")) << "an update the listen did not ask for";
    EXPECT_FALSE(is_method(event, "notifications/message")) << "a log line on a listen stream";
    EXPECT_FALSE(event.contains("id")) << "a response on a listen that was not ended";
  }
  EXPECT_TRUE(stream->junk.empty()) << stream->junk.front();
}

TEST(HttpListen, ListensAreBoundedByTheAddressConnectionLimitAndAClosedOneGivesItsPlaceBack) {
  DaemonProcess daemon;
  const auto [tcp_port, port] = start_tcp_and_http(daemon, "max_clients_per_address = 3");
  ASSERT_TRUE(tcp_port != 0 && port != 0);
  const json filter = {{"toolsListChanged", true}};
  const auto acknowledged = [](ListenStream& s) {
    return s.read_until([](const json& e) { return is_method(e, "notifications/subscriptions/acknowledged"); });
  };
  std::vector<ListenStream> streams;
  for (int i = 0; i < 3; ++i) {
    auto stream = open_listen(port, filter);
    ASSERT_TRUE(stream && acknowledged(*stream)) << "listen " << i << "\n" << daemon.log();
    streams.push_back(std::move(*stream));
  }
  EXPECT_FALSE(open_listen(port, filter)) << "a fourth connection of the address was served";
  EXPECT_TRUE(daemon.wait_for_log("connections from 127.0.0.1 open"));

  streams.front().client.close();
  std::optional<ListenStream> again;
  EXPECT_TRUE(eventually([&] { return (again = open_listen(port, filter)) && acknowledged(*again); }, 5s, 50ms))
      << "a closed listen kept its connection's place";
}

TEST(HttpListen, AListenWhoseClientStopsReadingIsCutPastTheQueueBound) {
  DaemonProcess daemon;
  const auto [tcp_port, port] = start_tcp_and_http(daemon, "client_queue_bytes = 262144");
  ASSERT_TRUE(tcp_port != 0 && port != 0);
  auto client = LineClient::connect_tcp(port, 5s, /*receive_buffer=*/4096);
  ASSERT_TRUE(client && client->send_raw(listen_request({{"resourceSubscriptions", {"mcpu://daemon/activity"}}})));
  auto caller = LineClient::connect_tcp(tcp_port);
  ASSERT_TRUE(caller);
  json batch = json::array();
  for (int i = 0; i < 500; ++i)
    batch.push_back(json::parse(request_text("gpio_write", {{"pin", 2}, {"value", i % 2 == 0}}, i)));
  for (int round = 0; round < 20 && daemon.count_in_log("event stream dropped") == 0; ++round) {
    ASSERT_TRUE(caller->send_line(batch.dump()));
    ASSERT_TRUE(caller->read_line(30s)) << "the caller got no reply while the listen was unread";
  }
  EXPECT_TRUE(daemon.wait_for_log("event stream dropped", 5s)) << "an unread listen was never cut";
  EXPECT_TRUE(client->wait_closed(10s));
  EXPECT_FALSE(caller->result("gpio_read", {{"pin", 3}}).is_null()) << "the cut listen took the daemon down";
}

}  // namespace
}  // namespace mcpud::it::http_listen
