// SPDX-License-Identifier: MIT
// mcpud-loadgen: measures newline-delimited JSON-RPC latency and throughput over loopback TCP, and
// serves a bare line echo that marks the floor any such server can reach.
//
// Measurement tool, not a test: it reports figures and never judges them. Single thread, Boost.Asio
// only; replies are counted by their newlines, never parsed, so the client costs the same whatever
// server it drives.

#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

namespace mcpud::bench {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using boost::system::error_code;

constexpr std::string_view default_method_line =
    R"({"jsonrpc":"2.0","id":{id},"method":"gpio_write","params":{"pin":2,"value":true}})";
constexpr std::string_view id_placeholder = "{id}";
// One read's worth; the same order as a real server's per-read buffer.
constexpr std::size_t read_buffer_bytes = 64 * 1024;
constexpr auto connect_timeout = std::chrono::seconds(5);

// ---------------------------------------------------------------------------------------------
// Options

struct Options {
  // Echo server mode when set.
  std::optional<std::uint16_t> echo_port;
  std::uint32_t server_seconds = 900;    // echo server lifetime, so a forgotten one ends
  std::uint32_t max_connections = 4096;  // echo server connection cap
  bool free_port = false;                // print a free loopback port and exit

  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::string label = "server";
  std::string method_line{default_method_line};
  std::string expect;  // substring the first reply must contain
  bool run_sequential = true;
  bool run_pipelined = true;
  bool run_hold = false;
  std::uint32_t requests = 20000;
  std::uint32_t warmup = 1000;
  std::uint32_t connections = 16;
  std::uint32_t window = 64;
  double seconds = 3.0;
  double pipe_warmup_seconds = 0.5;
  std::uint32_t hold_connections = 1000;
  double hold_seconds = 5.0;
  double timeout_seconds = 120.0;  // hard cap on any one test
};

void print_usage() {
  std::fputs(
      "usage:\n"
      "  mcpud-loadgen --echo-server PORT [--server-seconds S] [--max-connections N]\n"
      "  mcpud-loadgen --free-port\n"
      "  mcpud-loadgen --port N [--host 127.0.0.1] [--label NAME] [--tests LIST]\n"
      "                [--requests N] [--warmup N]                 (sequential)\n"
      "                [--connections C] [--window W] [--seconds D] [--pipe-warmup S]\n"
      "                [--hold-connections K] [--hold-seconds S]    (hold)\n"
      "                [--method-line 'RAW JSON'] [--expect SUBSTRING] [--timeout S]\n"
      "  LIST is a comma list of sequential,pipelined,hold (default sequential,pipelined).\n"
      "  In --method-line, {id} is replaced by the request number; the line is sent\n"
      "  verbatim when it has no {id}.\n",
      stderr);
}

template <class T>
bool parse_number(std::string_view text, T& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc{} && ptr == end;
}

// Reads a number option and checks it lies within [low, high].
template <class T>
bool parse_bounded(std::string_view name, std::string_view text, T low, T high, T& out) {
  T value{};
  if (!parse_number(text, value) || value < low || value > high) {
    std::fprintf(stderr, "loadgen: %.*s wants a number in [%g, %g], got '%.*s'\n", static_cast<int>(name.size()),
                 name.data(), static_cast<double>(low), static_cast<double>(high), static_cast<int>(text.size()),
                 text.data());
    return false;
  }
  out = value;
  return true;
}

bool parse_tests(std::string_view list, Options& options) {
  options.run_sequential = options.run_pipelined = options.run_hold = false;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto name = list.substr(0, comma);
    if (name == "sequential") {
      options.run_sequential = true;
    } else if (name == "pipelined") {
      options.run_pipelined = true;
    } else if (name == "hold") {
      options.run_hold = true;
    } else {
      std::fprintf(stderr, "loadgen: unknown test '%.*s'\n", static_cast<int>(name.size()), name.data());
      return false;
    }
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return true;
}

// Handles one "--name value" pair; false on a bad value or unknown name.
bool apply_option(std::string_view name, std::string_view value, Options& o) {
  const auto count = [&](std::uint32_t low, std::uint32_t high, std::uint32_t& out) {
    return parse_bounded(name, value, low, high, out);
  };
  const auto seconds = [&](double low, double high, double& out) { return parse_bounded(name, value, low, high, out); };
  const auto text = [&](std::string& out) {
    out = value;
    return true;
  };
  if (name == "--echo-server") {
    std::uint16_t port = 0;
    if (!parse_bounded<std::uint16_t>(name, value, 0, 65535, port)) return false;
    o.echo_port = port;
    return true;
  }
  if (name == "--port") return parse_bounded<std::uint16_t>(name, value, 1, 65535, o.port);
  if (name == "--server-seconds") return count(1, 86400, o.server_seconds);
  if (name == "--max-connections") return count(1, 16384, o.max_connections);
  if (name == "--host") return text(o.host);
  if (name == "--label") return text(o.label);
  if (name == "--method-line") return text(o.method_line);
  if (name == "--expect") return text(o.expect);
  if (name == "--tests") return parse_tests(value, o);
  if (name == "--requests") return count(1, 10'000'000, o.requests);
  if (name == "--warmup") return count(0, 1'000'000, o.warmup);
  if (name == "--connections") return count(1, 1024, o.connections);
  if (name == "--window") return count(1, 4096, o.window);
  if (name == "--hold-connections") return count(1, 10000, o.hold_connections);
  if (name == "--seconds") return seconds(0.1, 600.0, o.seconds);
  if (name == "--pipe-warmup") return seconds(0.0, 60.0, o.pipe_warmup_seconds);
  if (name == "--hold-seconds") return seconds(0.0, 3600.0, o.hold_seconds);
  if (name == "--timeout") return seconds(1.0, 3600.0, o.timeout_seconds);
  std::fprintf(stderr, "loadgen: unknown option '%.*s'\n", static_cast<int>(name.size()), name.data());
  return false;
}

std::optional<Options> parse_args(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view name = argv[i];
    if (name == "--help" || name == "-h") return std::nullopt;
    if (name == "--free-port") {
      options.free_port = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "loadgen: %s needs a value\n", argv[i]);
      return std::nullopt;
    }
    if (!apply_option(name, argv[++i], options)) return std::nullopt;
  }
  if (options.method_line.find('\n') != std::string::npos) {
    std::fputs("loadgen: --method-line must be one line\n", stderr);
    return std::nullopt;
  }
  return options;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

Clock::duration to_duration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// ---------------------------------------------------------------------------------------------
// Echo server: the floor. Same shape as a real session (fixed read buffer, partial-line carry,
// replies of one read batched into one write, back-pressure), minus any JSON work.

class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket socket) : socket_(std::move(socket)) {}

  void start() {
    error_code ignored;
    socket_.set_option(tcp::no_delay(true), ignored);
    read();
  }

 private:
  // A line this long ends the session, as a real server's line cap would.
  static constexpr std::size_t max_line_bytes = 1024 * 1024;
  // Stop reading while this much output waits, so a client that never reads cannot grow us.
  static constexpr std::size_t max_pending_out = 4 * 1024 * 1024;

  void read() {
    reading_ = true;
    socket_.async_read_some(asio::buffer(buffer_), [self = shared_from_this()](error_code ec, std::size_t n) {
      self->reading_ = false;
      if (ec) return self->close();
      if (!self->frame({self->buffer_.data(), n})) return self->close();
      self->flush();
      if (self->pending_out_.size() < max_pending_out) self->read();
    });
  }

  // Echoes every complete line of one read into the output; keeps the partial rest.
  bool frame(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto newline = bytes.find('\n');
      if (newline == std::string_view::npos) {
        carry_.append(bytes);
        return carry_.size() <= max_line_bytes;
      }
      const auto line = bytes.substr(0, newline + 1);
      bytes.remove_prefix(newline + 1);
      if (carry_.empty()) {
        echo(line);  // fast path: the line lies wholly in this read, no copy to carry_
        continue;
      }
      carry_.append(line);
      echo(carry_);
      carry_.clear();
    }
    return true;
  }

  void echo(std::string_view line_with_newline) {
    // A real server ignores empty lines; so does the floor.
    if (line_with_newline.size() > 1) pending_out_.append(line_with_newline);
  }

  void flush() {
    if (writing_ || pending_out_.empty()) return;
    writing_ = true;
    in_flight_out_.swap(pending_out_);
    asio::async_write(socket_, asio::buffer(in_flight_out_), [self = shared_from_this()](error_code ec, std::size_t) {
      self->writing_ = false;
      self->in_flight_out_.clear();
      if (ec) return self->close();
      self->flush();
      if (!self->reading_ && self->socket_.is_open()) self->read();
    });
  }

  void close() {
    error_code ignored;
    socket_.close(ignored);
  }

  tcp::socket socket_;
  std::array<char, read_buffer_bytes> buffer_;
  std::string carry_;
  std::string pending_out_;
  std::string in_flight_out_;
  bool reading_ = false;
  bool writing_ = false;
};

class EchoServer {
 public:
  EchoServer(asio::io_context& io, const Options& options)
      : io_(io), acceptor_(io), accept_retry_(io), lifetime_(io), signals_(io, SIGINT, SIGTERM), options_(options) {}

  bool start(std::uint16_t port) {
    const tcp::endpoint endpoint(asio::ip::address_v4::loopback(), port);
    error_code ec;
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      std::fprintf(stderr, "loadgen: echo server cannot listen on port %u: %s\n", port, ec.message().c_str());
      return false;
    }
    std::fprintf(stderr, "echo server listening on 127.0.0.1:%u (for at most %u s)\n",
                 acceptor_.local_endpoint().port(), options_.server_seconds);
    lifetime_.expires_after(std::chrono::seconds(options_.server_seconds));
    lifetime_.async_wait([this](error_code ec) {
      if (!ec) stop("lifetime over");
    });
    signals_.async_wait([this](error_code ec, int) {
      if (!ec) stop("signal");
    });
    accept();
    return true;
  }

 private:
  void accept() {
    acceptor_.async_accept([this](error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (!ec) {
        admit(std::move(socket));
        return accept();
      }
      // Out of descriptors and the like fail at once again: pause instead of spinning.
      accept_retry_.expires_after(std::chrono::milliseconds(50));
      accept_retry_.async_wait([this](error_code wait_ec) {
        if (!wait_ec) accept();
      });
    });
  }

  void admit(tcp::socket socket) {
    // Sessions are owned by their pending handlers; expired pointers mark closed ones.
    std::erase_if(sessions_, [](const auto& weak) { return weak.expired(); });
    if (sessions_.size() >= options_.max_connections) return;  // socket closes here
    auto session = std::make_shared<EchoSession>(std::move(socket));
    sessions_.push_back(session);
    session->start();
  }

  void stop(const char* why) {
    std::fprintf(stderr, "echo server stopping (%s)\n", why);
    // Stopping the context drops every session with its pending handlers.
    io_.stop();
  }

  asio::io_context& io_;
  tcp::acceptor acceptor_;
  asio::steady_timer accept_retry_;
  asio::steady_timer lifetime_;
  asio::signal_set signals_;
  const Options& options_;
  std::vector<std::weak_ptr<EchoSession>> sessions_;
};

int run_echo_server(const Options& options) {
  asio::io_context io(1);
  EchoServer server(io, options);
  if (!server.start(*options.echo_port)) return 1;
  io.run();
  return 0;
}

int print_free_port() {
  asio::io_context io(1);
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  std::printf("%u\n", acceptor.local_endpoint().port());
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Client side

// Builds request lines from the template, splicing the request number in at {id}.
class RequestSource {
 public:
  explicit RequestSource(std::string_view line) {
    const auto at = line.find(id_placeholder);
    if (at == std::string_view::npos) {
      prefix_ = line;
      return;
    }
    prefix_ = line.substr(0, at);
    suffix_ = line.substr(at + id_placeholder.size());
    has_id_ = true;
  }

  void append(std::string& out, std::uint64_t id) const {
    out.append(prefix_);
    if (has_id_) {
      std::array<char, 24> digits{};
      const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), id).ptr;
      out.append(digits.data(), end);
      out.append(suffix_);
    }
    out.push_back('\n');
  }

 private:
  std::string prefix_;
  std::string suffix_;
  bool has_id_ = false;
};

std::size_t count_newlines(const char* data, std::size_t n) {
  return static_cast<std::size_t>(std::count(data, data + n, '\n'));
}

// Connects one socket within a deadline; returns false (with a message) on failure. Runs the
// context, so call it only while no other operation is pending on it.
bool connect_socket(asio::io_context& io, tcp::socket& socket, const tcp::endpoint& endpoint) {
  error_code ec = asio::error::would_block;
  socket.async_connect(endpoint, [&ec](error_code result) { ec = result; });
  io.restart();
  io.run_for(connect_timeout);
  if (ec == asio::error::would_block) {
    socket.close();  // the handler still runs (aborted) before `ec` goes out of scope
    io.restart();
    io.run();
    ec = asio::error::timed_out;
  }
  if (ec) {
    std::fprintf(stderr, "loadgen: connect to 127.0.0.1:%u failed: %s\n", endpoint.port(), ec.message().c_str());
    return false;
  }
  // Requests are small and written whole; Nagle would only add delay.
  socket.set_option(tcp::no_delay(true), ec);
  return true;
}

// Keeps the first reply line so a wrong server or method shows up instead of fast errors.
class FirstReply {
 public:
  void feed(const char* data, std::size_t n) {
    if (done_) return;
    const std::string_view bytes(data, n);
    const auto newline = bytes.find('\n');
    text_.append(bytes.substr(0, std::min(newline, max_kept - std::min(max_kept, text_.size()))));
    done_ = newline != std::string_view::npos || text_.size() >= max_kept;
  }
  const std::string& text() const { return text_; }

 private:
  static constexpr std::size_t max_kept = 400;
  std::string text_;
  bool done_ = false;
};

bool check_first_reply(const Options& options, const FirstReply& reply) {
  std::printf("[%s] first reply: %s\n", options.label.c_str(), reply.text().c_str());
  if (options.expect.empty() || reply.text().find(options.expect) != std::string::npos) return true;
  std::fprintf(stderr, "loadgen: first reply lacks expected '%s'\n", options.expect.c_str());
  return false;
}

// Nearest-rank percentile of sorted samples.
double percentile(const std::vector<std::int64_t>& sorted_ns, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * sorted_ns.size()));
  const auto index = std::clamp<std::size_t>(rank, 1, sorted_ns.size()) - 1;
  return static_cast<double>(sorted_ns[index]) / 1000.0;
}

// One connection, one request in flight: every round trip is timed on its own.
class SequentialTest {
 public:
  SequentialTest(asio::io_context& io, const Options& options)
      : socket_(io), deadline_(io), options_(options), requests_(options.method_line) {
    latencies_ns_.reserve(options.requests);
  }

  bool run(asio::io_context& io, const tcp::endpoint& endpoint) {
    if (!connect_socket(io, socket_, endpoint)) return false;
    deadline_.expires_after(to_duration(options_.timeout_seconds));
    deadline_.async_wait([this](error_code ec) {
      if (!ec) fail("timed out");
    });
    send_next();
    io.restart();
    io.run();
    if (!failed_) report();
    return !failed_ && check_first_reply(options_, first_reply_);
  }

 private:
  std::uint64_t total() const { return std::uint64_t{options_.warmup} + options_.requests; }

  void send_next() {
    if (sent_ == total()) return finish();
    if (sent_ == options_.warmup) measured_start_ = Clock::now();
    line_.clear();
    requests_.append(line_, sent_ + 1);
    ++sent_;
    sent_at_ = Clock::now();
    asio::async_write(socket_, asio::buffer(line_), [this](error_code ec, std::size_t) {
      if (ec) return fail(ec.message().c_str());
      read_reply();
    });
  }

  void read_reply() {
    socket_.async_read_some(asio::buffer(buffer_), [this](error_code ec, std::size_t n) {
      if (ec) return fail(ec.message().c_str());
      first_reply_.feed(buffer_.data(), n);
      if (count_newlines(buffer_.data(), n) == 0) return read_reply();  // reply still arriving
      if (sent_ > options_.warmup) {
        latencies_ns_.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - sent_at_).count());
      }
      send_next();
    });
  }

  void finish() {
    elapsed_s_ = seconds_since(measured_start_);
    deadline_.cancel();
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

  void fail(const char* why) {
    if (failed_) return;
    failed_ = true;
    std::fprintf(stderr, "loadgen: [%s] sequential test failed after %llu requests: %s\n", options_.label.c_str(),
                 static_cast<unsigned long long>(sent_), why);
    deadline_.cancel();
    error_code ignored;
    socket_.close(ignored);
  }

  void report() {
    std::sort(latencies_ns_.begin(), latencies_ns_.end());
    const double rps = static_cast<double>(latencies_ns_.size()) / elapsed_s_;
    const double p50 = percentile(latencies_ns_, 50), p90 = percentile(latencies_ns_, 90);
    const double p99 = percentile(latencies_ns_, 99), max = percentile(latencies_ns_, 100);
    std::printf(
        "[%s] sequential: %zu requests (after %u warm-up) in %.3f s: %.0f req/s, "
        "p50 %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us\n",
        options_.label.c_str(), latencies_ns_.size(), options_.warmup, elapsed_s_, rps, p50, p90, p99, max);
    std::printf(
        "RESULT label=%s test=sequential requests=%zu rps=%.0f p50_us=%.1f p90_us=%.1f "
        "p99_us=%.1f max_us=%.1f\n",
        options_.label.c_str(), latencies_ns_.size(), rps, p50, p90, p99, max);
  }

  tcp::socket socket_;
  asio::steady_timer deadline_;
  const Options& options_;
  RequestSource requests_;
  std::array<char, read_buffer_bytes> buffer_;
  std::string line_;
  FirstReply first_reply_;
  std::vector<std::int64_t> latencies_ns_;
  std::uint64_t sent_ = 0;
  Clock::time_point sent_at_;
  Clock::time_point measured_start_;
  double elapsed_s_ = 0;
  bool failed_ = false;
};

// Shared state of the pipelined test: one reply counter and the phase every connection obeys.
struct PipeShared {
  const RequestSource& requests;
  std::uint64_t next_id = 1;
  std::uint64_t replies = 0;
  std::uint32_t open = 0;  // connections not yet closed
  std::function<void()> on_all_closed;
  bool sending = true;  // false once the measured time is over: drain, then close
  bool failed = false;
};

// One connection that keeps `window` requests in flight, topping up as replies arrive.
class PipeConnection {
 public:
  PipeConnection(asio::io_context& io, PipeShared& shared, std::uint32_t window)
      : io_(io), socket_(io), shared_(shared), window_(window) {}

  bool connect(const tcp::endpoint& endpoint) {
    if (!connect_socket(io_, socket_, endpoint)) return false;
    ++shared_.open;
    return true;
  }

  void start() {
    owed_ = window_;
    flush();
    read();
  }

  // Stops topping up; the connection closes once its in-flight replies are in.
  void drain() {
    if (in_flight_ == 0) close();
  }

  void close() {
    if (!socket_.is_open()) return;
    error_code ignored;
    socket_.close(ignored);
    if (--shared_.open == 0 && shared_.on_all_closed) shared_.on_all_closed();
  }

 private:
  void read() {
    socket_.async_read_some(asio::buffer(buffer_), [this](error_code ec, std::size_t n) {
      if (ec) return on_error(ec);
      const auto replies = count_newlines(buffer_.data(), n);
      shared_.replies += replies;
      in_flight_ -= std::min<std::uint64_t>(in_flight_, replies);
      if (!shared_.sending) return in_flight_ == 0 ? close() : read();
      owed_ += replies;
      flush();
      read();
    });
  }

  // Sends every owed request in one write; a write in progress picks them up when it ends.
  void flush() {
    if (writing_ || owed_ == 0 || !shared_.sending) return;
    out_.clear();
    for (; owed_ > 0; --owed_, ++in_flight_) shared_.requests.append(out_, shared_.next_id++);
    writing_ = true;
    asio::async_write(socket_, asio::buffer(out_), [this](error_code ec, std::size_t) {
      writing_ = false;
      if (ec) return on_error(ec);
      flush();
    });
  }

  void on_error(error_code ec) {
    if (ec == asio::error::operation_aborted || !socket_.is_open()) return;
    if (shared_.sending && !shared_.failed) {
      shared_.failed = true;
      std::fprintf(stderr, "loadgen: pipelined connection failed: %s\n", ec.message().c_str());
      io_.stop();  // one broken connection spoils the figure; do not wait out the clock
    }
    close();
  }

  asio::io_context& io_;
  tcp::socket socket_;
  PipeShared& shared_;
  std::uint32_t window_;
  std::array<char, read_buffer_bytes> buffer_;
  std::string out_;
  std::uint64_t owed_ = 0;
  std::uint64_t in_flight_ = 0;
  bool writing_ = false;
};

// Many connections, each with a window of requests in flight, for a fixed time.
class PipelinedTest {
 public:
  PipelinedTest(asio::io_context& io, const Options& options)
      : io_(io), timer_(io), options_(options), requests_(options.method_line), shared_{requests_} {}

  bool run(const tcp::endpoint& endpoint) {
    for (std::uint32_t i = 0; i < options_.connections; ++i) {
      connections_.push_back(std::make_unique<PipeConnection>(io_, shared_, options_.window));
      if (!connections_.back()->connect(endpoint)) return false;
    }
    for (auto& connection : connections_) connection->start();
    timer_.expires_after(to_duration(options_.pipe_warmup_seconds));
    timer_.async_wait([this](error_code ec) {
      if (!ec) begin_measuring();
    });
    io_.restart();
    io_.run_for(to_duration(options_.pipe_warmup_seconds + options_.seconds + drain_seconds + 1));
    close_all();
    if (shared_.failed || !measured_) return false;
    report();
    return true;
  }

 private:
  static constexpr double drain_seconds = 2.0;

  void begin_measuring() {
    start_ = Clock::now();
    start_replies_ = shared_.replies;
    timer_.expires_after(to_duration(options_.seconds));
    timer_.async_wait([this](error_code ec) {
      if (!ec) end_measuring();
    });
  }

  void end_measuring() {
    elapsed_s_ = seconds_since(start_);
    measured_replies_ = shared_.replies - start_replies_;
    measured_ = true;
    shared_.sending = false;
    shared_.on_all_closed = [this] { timer_.cancel(); };
    for (auto& connection : connections_) connection->drain();
    // Whatever has not drained by then is cut off; the server sees a reset.
    timer_.expires_after(to_duration(drain_seconds));
    timer_.async_wait([this](error_code) {
      for (auto& connection : connections_) connection->close();
    });
  }

  // Closes whatever is left and lets the aborted handlers run while their objects still live.
  void close_all() {
    shared_.on_all_closed = nullptr;
    timer_.cancel();
    for (auto& connection : connections_) connection->close();
    io_.restart();
    io_.poll();
  }

  void report() {
    const double rps = static_cast<double>(measured_replies_) / elapsed_s_;
    std::printf(
        "[%s] pipelined: %u connections x window %u for %.2f s: %llu replies, "
        "%.0f req/s\n",
        options_.label.c_str(), options_.connections, options_.window, elapsed_s_,
        static_cast<unsigned long long>(measured_replies_), rps);
    std::printf(
        "RESULT label=%s test=pipelined connections=%u window=%u seconds=%.2f "
        "replies=%llu rps=%.0f\n",
        options_.label.c_str(), options_.connections, options_.window, elapsed_s_,
        static_cast<unsigned long long>(measured_replies_), rps);
  }

  asio::io_context& io_;
  asio::steady_timer timer_;
  const Options& options_;
  RequestSource requests_;
  PipeShared shared_;
  std::vector<std::unique_ptr<PipeConnection>> connections_;
  Clock::time_point start_;
  std::uint64_t start_replies_ = 0;
  std::uint64_t measured_replies_ = 0;
  double elapsed_s_ = 0;
  bool measured_ = false;
};

// Opens many connections, has each make one round trip (so the server has set the session up
// fully), then holds them idle so the caller can read the server's memory.
class HoldTest {
 public:
  HoldTest(asio::io_context& io, const Options& options) : io_(io), options_(options), requests_(options.method_line) {}

  bool run(const tcp::endpoint& endpoint) {
    const auto start = Clock::now();
    sockets_.reserve(options_.hold_connections);
    for (std::uint32_t i = 0; i < options_.hold_connections; ++i) {
      sockets_.emplace_back(io_);
      if (!connect_socket(io_, sockets_.back(), endpoint)) return fail_at(i);
      if (!round_trip(sockets_.back(), i + 1)) return fail_at(i);
    }
    std::printf("[%s] hold: %u connections open and answered in %.2f s; holding for %.1f s\n", options_.label.c_str(),
                options_.hold_connections, seconds_since(start), options_.hold_seconds);
    std::printf("RESULT label=%s test=hold connections=%u seconds=%.1f\n", options_.label.c_str(),
                options_.hold_connections, options_.hold_seconds);
    std::fflush(stdout);  // the caller samples memory once it sees this line
    asio::steady_timer idle(io_, to_duration(options_.hold_seconds));
    error_code ignored;
    idle.wait(ignored);
    for (auto& socket : sockets_) socket.close(ignored);
    return true;
  }

 private:
  // Blocking is fine here: the socket has a receive deadline, and latency is not measured.
  // Every reply is checked against --expect: a server that refuses clients over its limit still
  // answers with a line, and that connection must not count as held.
  bool round_trip(tcp::socket& socket, std::uint64_t id) {
    line_.clear();
    requests_.append(line_, id);
    error_code ec;
    asio::write(socket, asio::buffer(line_), ec);
    set_receive_timeout(socket);
    FirstReply reply;
    for (int reads = 0; !ec && reads < max_reads; ++reads) {
      const auto n = socket.read_some(asio::buffer(buffer_), ec);
      if (ec) break;
      reply.feed(buffer_.data(), n);
      if (count_newlines(buffer_.data(), n) == 0) continue;
      if (options_.expect.empty() || reply.text().find(options_.expect) != std::string::npos) {
        return true;
      }
      std::fprintf(stderr, "loadgen: hold reply lacks expected '%s': %s\n", options_.expect.c_str(),
                   reply.text().c_str());
      return false;
    }
    std::fprintf(stderr, "loadgen: hold round trip failed: %s\n", ec ? ec.message().c_str() : "no reply line");
    return false;
  }

  void set_receive_timeout(tcp::socket& socket) {
    const auto seconds = static_cast<long>(std::ceil(std::min(options_.timeout_seconds, 10.0)));
    const timeval tv{seconds, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }

  bool fail_at(std::uint32_t index) {
    std::fprintf(stderr, "loadgen: [%s] hold test stopped at connection %u of %u\n", options_.label.c_str(), index + 1,
                 options_.hold_connections);
    return false;
  }

  static constexpr int max_reads = 1000;
  asio::io_context& io_;
  const Options& options_;
  RequestSource requests_;
  std::vector<tcp::socket> sockets_;
  std::array<char, read_buffer_bytes> buffer_;
  std::string line_;
};

std::optional<tcp::endpoint> loopback_endpoint(const Options& options) {
  error_code ec;
  const auto address = asio::ip::make_address(options.host, ec);
  if (ec || !address.is_loopback()) {
    std::fprintf(stderr, "loadgen: --host must be a loopback address, got '%s'\n", options.host.c_str());
    return std::nullopt;
  }
  if (options.port == 0) {
    std::fputs("loadgen: --port is required\n", stderr);
    return std::nullopt;
  }
  return tcp::endpoint(address, options.port);
}

int run_client(const Options& options) {
  const auto endpoint = loopback_endpoint(options);
  if (!endpoint) return 2;
  asio::io_context io(1);
  if (options.run_sequential && !SequentialTest(io, options).run(io, *endpoint)) return 1;
  std::fflush(stdout);
  if (options.run_pipelined && !PipelinedTest(io, options).run(*endpoint)) return 1;
  std::fflush(stdout);
  if (options.run_hold && !HoldTest(io, options).run(*endpoint)) return 1;
  return 0;
}

}  // namespace
}  // namespace mcpud::bench

int main(int argc, char** argv) {
  using namespace mcpud::bench;
  const auto options = parse_args(argc, argv);
  if (!options) {
    print_usage();
    return 2;
  }
  try {
    if (options->free_port) return print_free_port();
    if (options->echo_port) return run_echo_server(*options);
    return run_client(*options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loadgen: %s\n", e.what());
    return 1;
  }
}
