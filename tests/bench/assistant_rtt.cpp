// SPDX-License-Identifier: MIT
// mcpud-assistant-bench: round-trip time and throughput of MCP tools/call through
// the voice-assistant WebSocket uplink, next to the same calls over direct TCP,
// against the real mcpud started with a temporary config. Plays the server with
// a blocking Beast WebSocket on loopback; prints figures, never fails on them.
//
// usage: mcpud-assistant-bench MCPUD_BINARY [CALLS]
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

extern char** environ;

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;

const char* kCall =
    R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gpio_read","arguments":{"pin":2}}})";

int free_port(boost::asio::io_context& io) {
  tcp::acceptor probe(io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  return probe.local_endpoint().port();
}

void report(const std::string& label, std::vector<double> us, double pipelined_per_s) {
  std::sort(us.begin(), us.end());
  std::printf("%-22s median %7.1f us   p99 %7.1f us   pipelined %9.0f calls/s\n", label.c_str(), us[us.size() / 2],
              us[us.size() * 99 / 100], pipelined_per_s);
}

// Sequential round trips, then `n` calls written before any reply is read.
template <class Send, class Receive>
void measure(const std::string& label, int n, Send send, Receive receive) {
  std::vector<double> us;
  for (int i = 0; i < n; ++i) {
    const auto start = Clock::now();
    send();
    receive();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  const auto start = Clock::now();
  for (int i = 0; i < n; ++i) send();
  for (int i = 0; i < n; ++i) receive();
  report(label, us, n / std::chrono::duration<double>(Clock::now() - start).count());
}

long rss_kb(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: mcpud-assistant-bench MCPUD_BINARY [CALLS]\n";
    return 2;
  }
  const int calls = argc > 2 ? std::stoi(argv[2]) : 20000;
  boost::asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  const int tcp_port = free_port(io);

  char dir[] = "/tmp/mcpud-assistant-bench-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  const std::string config = std::string(dir) + "/mcpud.toml";
  std::ofstream(config) << "board = \"sim\"\nlisten = [\"127.0.0.1:" << tcp_port << "\"]\nlog_level = \"warn\"\n"
                        << "[unix_socket]\npath = \"\"\n[[pins]]\nname = \"led\"\npin = 2\ntype = \"digital_output\"\n"
                        << "[uplink.assistant]\nurl = \"ws://127.0.0.1:" << acceptor.local_endpoint().port()
                        << "/\"\nqueue_bytes = 67108864\n";
  std::vector<std::string> args = {argv[1], "--config", config, "--dbus=none"};
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[1], nullptr, nullptr, cargs.data(), environ) != 0) return 1;

  websocket::stream<beast::tcp_stream> ws(acceptor.accept());
  ws.accept();
  beast::flat_buffer buffer;
  ws.read(buffer);  // the device's hello
  buffer.consume(buffer.size());
  ws.text(true);
  ws.write(boost::asio::buffer(std::string(R"({"type":"hello","transport":"websocket","session_id":"bench"})")));
  const std::string envelope = std::string(R"({"session_id":"bench","type":"mcp","payload":)") + kCall + "}";
  const auto ws_send = [&] { ws.write(boost::asio::buffer(envelope)); };
  const auto ws_receive = [&] {
    ws.read(buffer);
    buffer.consume(buffer.size());
  };
  ws_send();
  ws_receive();  // warm-up, and proof the session is up
  std::printf("%d calls of tools/call gpio_read each way\n", calls);
  measure("assistant uplink (ws)", calls, ws_send, ws_receive);

  tcp::socket socket(io);
  socket.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(tcp_port)));
  socket.set_option(tcp::no_delay(true));
  boost::asio::streambuf lines;
  const std::string line = std::string(kCall) + "\n";
  const auto tcp_send = [&] { boost::asio::write(socket, boost::asio::buffer(line)); };
  const auto tcp_receive = [&] {
    const auto n = boost::asio::read_until(socket, lines, '\n');
    lines.consume(n);
  };
  measure("direct TCP (MCP lines)", calls, tcp_send, tcp_receive);
  std::printf("mcpud resident memory with the uplink connected: %ld kB\n", rss_kb(pid));

  kill(pid, SIGTERM);
  waitpid(pid, nullptr, 0);
  std::remove(config.c_str());
  rmdir(dir);
  return 0;
}
