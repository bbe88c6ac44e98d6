// SPDX-License-Identifier: MIT
// mcpud-mcp-bench: drives one MCP server over stdio (a child it starts), the
// same way whatever the server: initialize, notifications/initialized, then
// tools/call pipelined (replies/s) and one at a time (latency percentiles).
// run-mcp-bench.sh runs it against mcpud and the TypeScript SDK peer.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

const char* const kUsage = R"(usage: mcpud-mcp-bench [options] -- SERVER [ARGS...]
Starts SERVER with pipes on its stdin and stdout, initializes an MCP session and
measures requests over it. Every reply must contain its line's expected text.
  --line NAME=TEMPLATE   a request line; {id} becomes the request number. The
                         first line is the one pipelined. Repeatable.
  --expect NAME=TEXT     what every reply to line NAME must contain
  --tests LIST           pipelined,sequential (default both)
  --requests N           pipelined requests timed (default 100000)
  --window W             pipelined requests kept in flight (default 64)
  --sequential N         sequential requests timed per line (default 20000)
  --warmup N             untimed requests before each test (default 2000)
  --timeout S            seconds a test may take (default 120)
  --label L              names the server in the RESULT lines
  --no-initialize        skip the MCP handshake (MCP/U-only servers)
Prints one line per test: RESULT label=L test=... )";

struct Line {
  std::string name;
  std::string prefix;  // before {id}
  std::string suffix;  // after {id}, newline included
  std::string expect;

  void append(std::string& out, long id) const {
    out += prefix;
    out += std::to_string(id);
    out += suffix;
  }
};

struct Options {
  std::vector<Line> lines;
  bool pipelined = true;
  bool sequential = true;
  long requests = 100000;
  long window = 64;
  long sequential_requests = 20000;
  long warmup = 2000;
  int timeout_s = 120;
  bool initialize = true;
  std::string label = "server";
  std::vector<char*> command;
};

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "mcpud-mcp-bench: %s\n", why.c_str());
  std::exit(1);
}

long number_of(const char* flag, const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 0) fail(std::string(flag) + ": not a number: " + text);
  return value;
}

Line& line_named(Options& options, std::string_view name) {
  for (auto& line : options.lines)
    if (line.name == name) return line;
  fail("--expect names no --line: " + std::string(name));
}

void add_line(Options& options, std::string_view spec) {
  const auto eq = spec.find('=');
  if (eq == std::string_view::npos) fail("--line wants NAME=TEMPLATE, got: " + std::string(spec));
  Line line;
  line.name = spec.substr(0, eq);
  const auto text = spec.substr(eq + 1);
  const auto at = text.find("{id}");
  if (at == std::string_view::npos) fail("--line " + line.name + ": the template has no {id}");
  line.prefix = text.substr(0, at);
  line.suffix = std::string(text.substr(at + 4)) + "\n";
  options.lines.push_back(std::move(line));
}

Options parse_options(int argc, char** argv) {
  Options options;
  int i = 1;
  auto value = [&](const char* flag) {
    if (i + 1 >= argc) fail(std::string(flag) + " needs a value");
    return argv[++i];
  };
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") {
      options.command.assign(argv + i + 1, argv + argc);
      break;
    }
    if (arg == "--line") {
      add_line(options, value("--line"));
    } else if (arg == "--expect") {
      const std::string_view spec = value("--expect");
      const auto eq = spec.find('=');
      if (eq == std::string_view::npos) fail("--expect wants NAME=TEXT");
      line_named(options, spec.substr(0, eq)).expect = spec.substr(eq + 1);
    } else if (arg == "--tests") {
      const std::string_view tests = value("--tests");
      options.pipelined = tests.find("pipelined") != std::string_view::npos;
      options.sequential = tests.find("sequential") != std::string_view::npos;
    } else if (arg == "--requests") {
      options.requests = number_of("--requests", value("--requests"));
    } else if (arg == "--window") {
      options.window = std::max(1L, number_of("--window", value("--window")));
    } else if (arg == "--sequential") {
      options.sequential_requests = number_of("--sequential", value("--sequential"));
    } else if (arg == "--warmup") {
      options.warmup = number_of("--warmup", value("--warmup"));
    } else if (arg == "--timeout") {
      options.timeout_s = static_cast<int>(number_of("--timeout", value("--timeout")));
    } else if (arg == "--label") {
      options.label = value("--label");
    } else if (arg == "--no-initialize") {
      options.initialize = false;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      fail("unknown option " + std::string(arg) + " (--help lists them)");
    }
  }
  if (options.command.empty()) fail("no server command after --");
  if (options.lines.empty()) fail("give at least one --line");
  options.command.push_back(nullptr);
  return options;
}

// The server as a child process, its stdin and stdout on our pipes (non-blocking).
class Child {
 public:
  explicit Child(std::vector<char*>& command) {
    int to_child[2];
    int from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) fail("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) fail("fork failed");
    if (pid_ == 0) {
      ::dup2(to_child[0], STDIN_FILENO);
      ::dup2(from_child[1], STDOUT_FILENO);
      ::execvp(command[0], command.data());
      std::fprintf(stderr, "mcpud-mcp-bench: cannot run %s: %s\n", command[0], std::strerror(errno));
      ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    to_ = to_child[1];
    from_ = from_child[0];
    ::fcntl(to_, F_SETFL, O_NONBLOCK);
    ::fcntl(from_, F_SETFL, O_NONBLOCK);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Closes its stdin (a stdio MCP server's cue to exit) and waits up to 10 s.
  ~Child() {
    ::close(to_);
    ::close(from_);
    for (int i = 0; i < 1000; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      ::usleep(10000);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }

  int to() const { return to_; }
  int from() const { return from_; }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
};

// Moves bytes both ways and hands complete reply lines to the caller.
class Pipe {
 public:
  Pipe(Child& child, int timeout_s) : child_(child), deadline_(Clock::now() + std::chrono::seconds(timeout_s)) {}

  std::string outgoing;

  // Waits until the server can take bytes or has sent some; writes what it can,
  // reads what came, and calls on_line(line) for each complete line.
  template <class OnLine>
  void pump(OnLine&& on_line) {
    pollfd fds[2] = {{child_.from(), POLLIN, 0}, {child_.to(), POLLOUT, 0}};
    const int count = written_ < outgoing.size() ? 2 : 1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
    if (left <= 0) fail("timed out");
    if (::poll(fds, count, static_cast<int>(left)) < 0 && errno != EINTR) fail("poll failed");
    if (count == 2 && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) write_some();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) read_some(on_line);
  }

 private:
  void write_some() {
    const auto n = ::write(child_.to(), outgoing.data() + written_, outgoing.size() - written_);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) return;
      fail(std::string("the server's stdin: ") + std::strerror(errno));
    }
    written_ += static_cast<std::size_t>(n);
    if (written_ == outgoing.size()) {
      outgoing.clear();
      written_ = 0;
    }
  }

  template <class OnLine>
  void read_some(OnLine& on_line) {
    char chunk[65536];
    const auto n = ::read(child_.from(), chunk, sizeof chunk);
    if (n == 0) fail("the server closed its stdout");
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) return;
      fail(std::string("the server's stdout: ") + std::strerror(errno));
    }
    incoming_.append(chunk, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (auto end = incoming_.find('\n'); end != std::string::npos; end = incoming_.find('\n', start)) {
      on_line(std::string_view(incoming_).substr(start, end - start));
      start = end + 1;
    }
    incoming_.erase(0, start);
  }

  Child& child_;
  Clock::time_point deadline_;
  std::size_t written_ = 0;
  std::string incoming_;
};

void check_reply(const Line& line, std::string_view reply) {
  if (!line.expect.empty() && reply.find(line.expect) == std::string_view::npos)
    fail("reply to '" + line.name + "' lacks " + line.expect + ": " + std::string(reply.substr(0, 300)));
}

// Sends `text` and waits for the reply line containing `wanted`.
void exchange(Child& child, int timeout_s, const std::string& text, std::string_view wanted) {
  Pipe pipe(child, timeout_s);
  pipe.outgoing = text;
  bool done = false;
  while (!done) {
    pipe.pump([&](std::string_view reply) { done = done || reply.find(wanted) != std::string_view::npos; });
  }
}

void initialize(Child& child, int timeout_s) {
  exchange(child, timeout_s,
           R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18",)"
           R"("capabilities":{},"clientInfo":{"name":"mcpud-mcp-bench","version":"1"}}})"
           "\n"
           R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
           "\n",
           R"("init")");
}

// `count` requests of `line`, at most `window` in flight; returns the seconds taken.
double pipelined(Child& child, const Options& options, const Line& line, long count, long& next_id) {
  Pipe pipe(child, options.timeout_s);
  long sent = 0;
  long received = 0;
  const auto start = Clock::now();
  while (received < count) {
    while (sent < count && sent - received < options.window) {
      line.append(pipe.outgoing, next_id++);
      ++sent;
    }
    pipe.pump([&](std::string_view reply) {
      check_reply(line, reply);
      ++received;
    });
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double percentile(std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

// One request of each line in turn, `count` rounds: drift hits every line alike.
void sequential(Child& child, const Options& options, long count, long& next_id, bool report) {
  std::vector<std::vector<double>> micros(options.lines.size());
  for (auto& m : micros) m.reserve(static_cast<std::size_t>(count));
  Pipe pipe(child, options.timeout_s);
  for (long i = 0; i < count; ++i) {
    for (std::size_t l = 0; l < options.lines.size(); ++l) {
      const auto& line = options.lines[l];
      line.append(pipe.outgoing, next_id++);
      const auto start = Clock::now();
      bool answered = false;
      while (!answered) {
        pipe.pump([&](std::string_view reply) {
          check_reply(line, reply);
          answered = true;
        });
      }
      micros[l].push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
  }
  if (!report) return;
  for (std::size_t l = 0; l < options.lines.size(); ++l) {
    auto& m = micros[l];
    std::sort(m.begin(), m.end());
    double total = 0;
    for (const double us : m) total += us;
    std::printf(
        "RESULT label=%s line=%s test=sequential requests=%ld rps=%.0f p50_us=%.1f p90_us=%.1f "
        "p99_us=%.1f max_us=%.1f\n",
        options.label.c_str(), options.lines[l].name.c_str(), count, total > 0 ? 1e6 * count / total : 0.0,
        percentile(m, 0.50), percentile(m, 0.90), percentile(m, 0.99), m.empty() ? 0.0 : m.back());
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  Options options = parse_options(argc, argv);
  Child child(options.command);
  if (options.initialize) initialize(child, options.timeout_s);
  long next_id = 1;
  if (options.pipelined) {
    const auto& line = options.lines.front();
    pipelined(child, options, line, options.warmup, next_id);
    const double seconds = pipelined(child, options, line, options.requests, next_id);
    std::printf("RESULT label=%s line=%s test=pipelined requests=%ld window=%ld rps=%.0f\n", options.label.c_str(),
                line.name.c_str(), options.requests, options.window, options.requests / seconds);
    std::fflush(stdout);
  }
  if (options.sequential) {
    sequential(child, options, options.warmup / static_cast<long>(options.lines.size()), next_id, false);
    sequential(child, options, options.sequential_requests, next_id, true);
  }
  return 0;
}
