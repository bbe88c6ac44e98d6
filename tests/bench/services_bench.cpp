// SPDX-License-Identifier: MIT
// mcpud-services-bench: plays the loopback server of the `##START` services uplink and
// times one tool call (gpio_read) served through it, next to the same call over MCP/U
// on the same mcpud's direct TCP port: sequential round trips and a burst sent at once,
// rounds alternating which path goes first, plus the daemon's RSS. run-services-bench.sh
// drives it. Blocking POSIX sockets and poll(); measurement tool, not a test: it reports
// figures and never judges them.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <expected>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "start_frame.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using mcpud::uplinks::Decoded;
using mcpud::uplinks::FrameType;
using mcpud::uplinks::StartFrame;
using mcpud::uplinks::StartFrameDecoder;

constexpr auto kTimeout = std::chrono::seconds(30);
constexpr std::string_view kTaskId = "mcp00001";
constexpr std::size_t kMaxFrameBytes = 1 << 20;  // far more than any frame the bench reads

struct Options {
  int tcp_port = 0;
  std::string pid_file;
  int pin = 2;
  std::size_t requests = 3000;
  std::size_t warmup = 500;
  std::size_t burst = 20000;
  std::size_t rounds = 3;
};

// An owned file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

sockaddr_in loopback(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

void no_delay(const Fd& fd) {
  const int one = 1;
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// A bound, listening socket on a port the kernel picked; its port in `port`.
Fd listen_loopback(int& port) {
  Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  auto address = loopback(0);
  socklen_t size = sizeof address;
  if (fd.get() < 0 || ::bind(fd.get(), reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::listen(fd.get(), 1) != 0 || ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &size) != 0)
    return Fd();
  port = ntohs(address.sin_port);
  return fd;
}

// Waits (up to kTimeout) for the daemon to dial in.
Fd accept_one(const Fd& listener) {
  pollfd waiting{listener.get(), POLLIN, 0};
  if (::poll(&waiting, 1, static_cast<int>(std::chrono::milliseconds(kTimeout).count())) != 1) return Fd();
  Fd link(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
  no_delay(link);
  return link;
}

// Connects to the daemon's TCP port, retrying for 5 s: its listener and its uplink come up
// independently.
Fd connect_loopback(int port) {
  const auto address = loopback(port);
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  do {
    Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (fd.get() >= 0 && ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
      no_delay(fd);
      return fd;
    }
    ::usleep(10'000);
  } while (Clock::now() < deadline);
  return Fd();
}

// Replies seen so far on a path, and how many of them were failures.
struct Tally {
  std::size_t replies = 0;
  std::size_t failures = 0;
};

// One way to reach the tool: how a call is written and how replies are recognised.
class Path {
 public:
  Path(std::string label, Fd link) : label_(std::move(label)), link_(std::move(link)) {
    ::fcntl(link_.get(), F_SETFL, ::fcntl(link_.get(), F_GETFL) | O_NONBLOCK);
  }
  virtual ~Path() = default;
  virtual std::string call(std::size_t id, int pin) const = 0;
  // Counts the replies `bytes` complete.
  virtual void consume(std::string_view bytes) = 0;

  const std::string& label() const { return label_; }
  const Tally& tally() const { return tally_; }
  int fd() const { return link_.get(); }

 protected:
  Tally tally_;

 private:
  std::string label_;
  Fd link_;
};

// JSON-RPC lines on the daemon's MCP/U TCP port.
class TcpPath final : public Path {
 public:
  using Path::Path;
  std::string call(std::size_t id, int pin) const override {
    return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"gpio_read","params":{"pin":)" +
           std::to_string(pin) + "}}\n";
  }
  void consume(std::string_view bytes) override {
    partial_.append(bytes);
    std::size_t begin = 0;
    for (auto end = partial_.find('\n'); end != std::string::npos; end = partial_.find('\n', begin)) {
      ++tally_.replies;
      if (std::string_view(partial_).substr(begin, end - begin).find("\"result\"") == std::string_view::npos)
        ++tally_.failures;
      begin = end + 1;
    }
    partial_.erase(0, begin);
  }

 private:
  std::string partial_;
};

// `##START` frames on the connection the daemon dialed; only `result` messages count.
class UplinkPath final : public Path {
 public:
  using Path::Path;
  std::string call(std::size_t id, int pin) const override {
    const auto content = R"({"type":"call","data":{"call_id":")" + std::to_string(id) +
                         R"(","method":"gpio_read","params":{"pin":)" + std::to_string(pin) + "}}}";
    return *mcpud::uplinks::encode_frame(FrameType::Mcp, kTaskId, 0, content);
  }
  void consume(std::string_view bytes) override {
    decoded_.clear();
    decoder_.feed(bytes, decoded_);
    for (const auto& item : decoded_) {
      const auto* frame = std::get_if<StartFrame>(&item);
      if (frame == nullptr) {
        ++problems_;
        continue;
      }
      if (frame->type != FrameType::Mcp) continue;  // AUTH, a ##PING
      if (frame->content.find(R"("type":"register")") != std::string::npos) registered_ = true;
      if (frame->content.find(R"("type":"result")") == std::string::npos) continue;
      ++tally_.replies;
      if (frame->content.find(R"("success":true)") == std::string::npos) ++tally_.failures;
    }
  }
  bool registered() const { return registered_; }
  std::size_t problems() const { return problems_; }

 private:
  StartFrameDecoder decoder_{kMaxFrameBytes};
  std::vector<Decoded> decoded_;
  bool registered_ = false;
  std::size_t problems_ = 0;
};

// Reads whatever has arrived (until the socket would block); an error text, or empty.
std::string drain(Path& path) {
  char buffer[64 * 1024];
  for (;;) {
    const auto got = ::recv(path.fd(), buffer, sizeof buffer, 0);
    if (got > 0) path.consume(std::string_view(buffer, static_cast<std::size_t>(got)));
    if (got == 0) return "the daemon closed the connection (see its log)";
    if (got < 0) return errno == EAGAIN ? "" : std::string("recv: ") + std::strerror(errno);
  }
}

// Writes `out` while reading, until `done()` or the timeout. Every reply that has arrived
// is read before more is written, so the bench is never the reason replies wait in the
// daemon (whose send queue is bounded). An error text, or empty.
template <class Done>
std::string exchange(Path& path, std::string_view out, Done done) {
  const auto deadline = Clock::now() + kTimeout;
  while (!done()) {
    pollfd ready{path.fd(), static_cast<short>(POLLIN | (out.empty() ? 0 : POLLOUT)), 0};
    if (Clock::now() > deadline) return "no reply within 30 s";
    if (::poll(&ready, 1, 1000) < 0) return std::string("poll: ") + std::strerror(errno);
    if ((ready.revents & (POLLIN | POLLHUP | POLLERR)) != 0)
      if (auto problem = drain(path); !problem.empty()) return problem;
    if ((ready.revents & POLLOUT) != 0) {
      const auto sent = ::send(path.fd(), out.data(), std::min<std::size_t>(out.size(), 64 * 1024), MSG_NOSIGNAL);
      if (sent < 0 && errno != EAGAIN) return std::string("send: ") + std::strerror(errno);
      if (sent > 0) out.remove_prefix(static_cast<std::size_t>(sent));
    }
  }
  return "";
}

std::string await_replies(Path& path, std::string_view out, std::size_t count) {
  const auto target = path.tally().replies + count;
  return exchange(path, out, [&] { return path.tally().replies >= target; });
}

double percentile(const std::vector<double>& sorted, double p) {
  const auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

struct Figures {
  double p50_us = 0, p99_us = 0, burst_per_s = 0;
};

// One call in flight at a time, each timed from send to its reply; then `burst` calls
// written at once, timed until the last reply.
std::expected<Figures, std::string> measure(Path& path, const Options& o) {
  std::vector<double> times;
  for (std::size_t i = 0; i < o.warmup + o.requests; ++i) {
    const auto start = Clock::now();
    if (auto problem = await_replies(path, path.call(i, o.pin), 1); !problem.empty()) return std::unexpected(problem);
    if (i >= o.warmup) times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  std::string burst;
  for (std::size_t i = 0; i < o.burst; ++i) burst += path.call(i, o.pin);
  const auto start = Clock::now();
  if (auto problem = await_replies(path, burst, o.burst); !problem.empty()) return std::unexpected(problem);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const Figures f{percentile(times, 0.5), percentile(times, 0.99), static_cast<double>(o.burst) / seconds};
  std::printf("RESULT label=%s requests=%zu p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f burst=%zu burst_rps=%.0f\n",
              path.label().c_str(), times.size(), f.p50_us, percentile(times, 0.9), f.p99_us, times.back(), o.burst,
              f.burst_per_s);
  std::fflush(stdout);
  return f;
}

// A /proc/PID/status field in kB (VmRSS, VmHWM); 0 when unreadable.
long memory_kb(long pid, std::string_view key) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with(key) && line.size() > key.size() && line[key.size()] == ':')
      return std::strtol(line.c_str() + key.size() + 1, nullptr, 10);
  return 0;
}

// The daemon's pid, from the file the run script writes as it starts it.
long daemon_pid(const std::string& file) {
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  long pid = 0;
  while (pid <= 0 && Clock::now() < deadline) {
    std::ifstream in(file);
    if (!(in >> pid)) ::usleep(10'000);
  }
  return pid;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void print_row(const char* title, const std::vector<Figures>& uplink, const std::vector<Figures>& tcp,
               double Figures::*field, int decimals = 1) {
  std::vector<double> u, t;
  for (const auto& f : uplink) u.push_back(f.*field);
  for (const auto& f : tcp) t.push_back(f.*field);
  std::printf("%-28s %12.*f %12.*f %9.2fx\n", title, decimals, median(t), decimals, median(u), median(u) / median(t));
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view name = argv[i];
    const char* value = argv[i + 1];
    const auto count = [&](std::size_t low, std::size_t high, std::size_t& out) {
      out = std::strtoul(value, nullptr, 10);
      return out >= low && out <= high;
    };
    bool ok = true;
    if (name == "--tcp-port")
      o.tcp_port = std::atoi(value);
    else if (name == "--pid-file")
      o.pid_file = value;
    else if (name == "--pin")
      o.pin = std::atoi(value);
    else if (name == "--requests")
      ok = count(1, 1'000'000, o.requests);
    else if (name == "--warmup")
      ok = count(0, 1'000'000, o.warmup);
    else if (name == "--burst")
      ok = count(1, 1'000'000, o.burst);
    else if (name == "--rounds")
      ok = count(1, 20, o.rounds);
    else
      return false;
    if (!ok) return false;
  }
  return argc % 2 == 1 && o.tcp_port > 0 && o.tcp_port < 65536 && !o.pid_file.empty();
}

int fail(const std::string& what) {
  std::fprintf(stderr, "services-bench: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: mcpud-services-bench --tcp-port PORT --pid-file FILE [--pin 2] [--requests 3000]\n"
                 "       [--warmup 500] [--burst 20000] [--rounds 3]\n"
                 "Listens on a loopback port (printed as 'LISTENING port=N') for the daemon's services uplink.\n");
    return 2;
  }
  int port = 0;
  const Fd listener = listen_loopback(port);
  if (listener.get() < 0) return fail("cannot listen on 127.0.0.1");
  std::printf("LISTENING port=%d\n", port);
  std::fflush(stdout);

  UplinkPath uplink("uplink", accept_one(listener));
  if (uplink.fd() < 0) return fail("the daemon did not dial in");
  if (auto problem = exchange(uplink, {}, [&] { return uplink.registered(); }); !problem.empty())
    return fail("waiting for register: " + problem);
  TcpPath tcp("tcp", connect_loopback(o.tcp_port));
  if (tcp.fd() < 0) return fail("cannot connect to the daemon's TCP port");
  const long pid = daemon_pid(o.pid_file);
  const long idle_rss = memory_kb(pid, "VmRSS");

  std::vector<Figures> over_uplink, over_tcp;
  for (std::size_t round = 1; round <= o.rounds; ++round) {
    std::printf("== round %zu of %zu\n", round, o.rounds);
    Path* order[] = {&tcp, &uplink};
    if (round % 2 == 0) std::swap(order[0], order[1]);
    for (Path* path : order) {
      const auto figures = measure(*path, o);
      if (!figures) return fail(path->label() + ": " + figures.error());
      (path == &tcp ? over_tcp : over_uplink).push_back(*figures);
    }
  }
  std::printf("\n== gpio_read, medians of %zu round(s)\n%-28s %12s %12s %10s\n", o.rounds, "", "MCP/U TCP", "uplink",
              "uplink/tcp");
  print_row("sequential p50 (us)", over_uplink, over_tcp, &Figures::p50_us);
  print_row("sequential p99 (us)", over_uplink, over_tcp, &Figures::p99_us);
  print_row("calls/s, burst sent at once", over_uplink, over_tcp, &Figures::burst_per_s, 0);
  std::printf("mcpud RSS: %ld kB idle with the uplink connected, %ld kB peak after the runs\n", idle_rss,
              memory_kb(pid, "VmHWM"));
  std::printf("failed replies: uplink %zu, tcp %zu; frames the decoder refused: %zu\n", uplink.tally().failures,
              tcp.tally().failures, uplink.problems());
  return uplink.tally().failures + tcp.tally().failures + uplink.problems() == 0 ? 0 : 1;
}
