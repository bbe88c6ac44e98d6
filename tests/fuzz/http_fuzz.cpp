// SPDX-License-Identifier: MIT
// Bytes from an HTTP client, through the real HTTP front door: each input is
// written to a fresh connection to a fresh HttpServer listening on loopback (with
// a bearer token, an allowed origin and an allowed host), and the server runs
// until it has answered and closed, or it has waited a bound of idle turns.
// The server is fresh per input because its sessions count against
// max_sessions_per_address: kept, they would make a later input's initialize
// fail for what earlier inputs did, and a crash would not reproduce alone.
// The loop never sleeps while a handler is ready: it polls, and only blocks
// (briefly) when nothing is ready and the server has not closed.
#include <cstdio>
#include <cstdlib>

#include <cerrno>
#include <string>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>

#include "mcpud/http/http_server.hpp"
#include "support/fuzz_input.hpp"
#include "support/fuzz_rpc.hpp"

namespace {

constexpr std::size_t kMaxInput = 64 * 1024;  // fits the loopback socket buffer: one write
constexpr int kMaxIdleTurns = 200;            // 1 ms waits with nothing ready before the client gives up
constexpr int kMaxTurns = 100'000;            // turns in all: bounds a server that never stops working

[[noreturn]] void fail(const char* what) {
  std::perror((std::string("http_fuzz: ") + what).c_str());
  std::abort();
}

// Connects without blocking in connect(): libFuzzer's timer signal (-timeout)
// interrupts a blocking connect with EINTR, after which the connection goes on
// by itself and cannot be retried; waiting for it in poll() can be.
int connect_to(const std::string& address) {
  const auto colon = address.rfind(':');
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  peer.sin_port = htons(static_cast<std::uint16_t>(std::atoi(address.c_str() + colon + 1)));
  peer.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) fail("socket");
  if (::connect(fd, reinterpret_cast<sockaddr*>(&peer), sizeof peer) != 0) {
    if (errno != EINPROGRESS && errno != EINTR) fail("connect");
    pollfd writable{fd, POLLOUT, 0};
    while (::poll(&writable, 1, -1) < 0) {
      if (errno != EINTR) fail("poll");
    }
    int error = 0;
    socklen_t length = sizeof error;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) {
      errno = error;
      fail("connect");
    }
  }
  return fd;
}

// Writes the input (it fits the loopback socket buffer: a full buffer would end
// it early, as a client that stops writing), again past EINTR.
void write_all(int fd, const std::uint8_t* data, std::size_t size) {
  while (size > 0) {
    const auto wrote = ::write(fd, data, size);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0 && errno == EAGAIN) return;
    if (wrote <= 0) fail("write");
    data += wrote;
    size -= static_cast<std::size_t>(wrote);
  }
}

// Reads what the server sends until it closes; false when it did not in time.
bool drain(int fd, boost::asio::io_context& io) {
  char buffer[16384];
  int idle = 0;
  for (int turn = 0; turn < kMaxTurns && idle < kMaxIdleTurns; ++turn) {
    const auto handled = io.poll();
    const auto got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) return true;
    if (got < 0 && errno != EAGAIN && errno != EINTR) return true;
    if (got > 0 || handled > 0) continue;
    // Nothing ready on either side: wait for the next event rather than spin.
    if (io.run_one_for(std::chrono::milliseconds(1)) == 0) ++idle;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return 0;
  static mcpud::fuzz::RpcHarness harness;
  boost::asio::io_context io;
  mcpud::http::HttpOptions options;
  options.listen = "127.0.0.1:0";
  options.token = "secret";
  options.allowed_origins = {"https://example.org"};
  options.allowed_hosts = {"pi.local"};
  options.max_sessions = 64;
  options.max_body_bytes = 16 * 1024;
  options.max_sessions_per_address = 16;
  options.max_connections = 256;
  options.max_connections_per_address = 64;
  options.queue_bytes = 1024 * 1024;
  mcpud::http::HttpServer server(io, options, harness.engine);
  if (auto opened = server.open(); !opened) {
    std::fprintf(stderr, "http_fuzz: %s\n", opened.error().c_str());
    std::abort();
  }
  const int fd = connect_to(server.local_address());
  write_all(fd, data, size);
  ::shutdown(fd, SHUT_WR);
  (void)drain(fd, io);
  ::close(fd);
  server.close();
  io.poll();  // the handlers the close completed (aborted reads, the acceptor's)
  return 0;
}
