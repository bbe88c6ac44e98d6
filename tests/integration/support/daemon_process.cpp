// SPDX-License-Identifier: MIT
#include "support/daemon_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include <gtest/gtest.h>

#ifndef MCPUD_BINARY
#error "MCPUD_BINARY must name the mcpud executable"
#endif

namespace mcpud::it {
namespace {

// Test peers (scripted devices, clients) write to sockets the daemon may close at
// any moment; that must be an EPIPE they handle, never the death of the test binary.
// Children get the default disposition back before exec (see start()).
[[maybe_unused]] const bool kSigpipeIgnored = (::signal(SIGPIPE, SIG_IGN), true);

}  // namespace

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/mcpud-it-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp(" << pattern << "): " << std::strerror(errno);
    return;
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::write_file(const std::string& name, const std::string& contents) const {
  const auto target = path_ / name;
  const auto temporary = path_ / (name + ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << contents;
    if (!out.flush()) ADD_FAILURE() << "cannot write " << temporary;
  }
  std::filesystem::rename(temporary, target);
  return target.string();
}

DaemonProcess::DaemonProcess() = default;

DaemonProcess::~DaemonProcess() {
  if (pid_ > 0 && !exit_status_) {
    ::kill(-pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (reader_.joinable()) reader_.join();
  if (::testing::Test::HasFailure() && pid_ > 0) {
    std::cerr << "----- mcpud stderr (pid " << pid_ << ") -----\n"
              << log() << "----- mcpud stdout -----\n"
              << stdout_text() << "----- end of mcpud output -----\n";
  }
}

bool DaemonProcess::start(const std::vector<std::string>& args) {
  std::vector<std::string> with_bus = args;
  if (std::none_of(args.begin(), args.end(), [](const std::string& a) { return a.starts_with("--dbus"); })) {
    with_bus.push_back("--dbus=none");
  }
  return start_program(MCPUD_BINARY, with_bus);
}

bool DaemonProcess::start_program(const std::string& program, const std::vector<std::string>& args) {
  if (pid_ > 0) {
    ADD_FAILURE() << "DaemonProcess::start called twice";
    return false;
  }
  // Everything the child needs is built before fork: only async-signal-safe calls after it.
  std::vector<std::string> argv_storage{program};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);

  std::array<int, 2> out_pipe{-1, -1};
  std::array<int, 2> err_pipe{-1, -1};
  if (::pipe2(out_pipe.data(), O_CLOEXEC) != 0 || ::pipe2(err_pipe.data(), O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << std::strerror(errno);
    return false;
  }
  // As systemd's StateDirectory= does: each daemon keeps its state (the
  // emergency stop's latch) in its own directory, never in /var/lib/mcpud.
  std::string state_directory = "STATE_DIRECTORY=" + (dir_.path() / "state").string();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return false;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (const int signo : {SIGPIPE, SIGTERM, SIGHUP, SIGINT}) ::signal(signo, SIG_DFL);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    // The test process holds sockets and pty masters; the daemon must not keep
    // them open (closing a pty master has to make the device vanish).
    if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
      for (int fd = 3; fd < 4096; ++fd) ::close(fd);
    }
    ::putenv(state_directory.data());
    ::execv(argv[0], argv.data());
    static const char kMessage[] = "integration test: execv of mcpud failed\n";
    [[maybe_unused]] auto written = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also done in the child; whichever runs first wins the race
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  pid_ = pid;
  reader_ = std::thread([this, out = out_pipe[0], err = err_pipe[0]] { drain(out, err); });
  return true;
}

int DaemonProcess::start_tcp(std::vector<std::string> args, Deadline deadline) {
  args.push_back("--listen");
  args.push_back("127.0.0.1:0");
  if (!start(args)) return 0;
  return wait_for_port(deadline);
}

int DaemonProcess::wait_for_port(Deadline deadline) {
  static const std::regex kListening(R"(listening on 127\.0\.0\.1:(\d+) \(MCP/U over TCP\))");
  const auto match = wait_for_log(kListening, deadline);
  if (!match) {
    ADD_FAILURE() << "mcpud never reported its TCP port";
    return 0;
  }
  port_ = std::stoi(match->at(1));
  return port_;
}

void DaemonProcess::drain(int out_fd, int err_fd) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<char, 4096> buffer{};
  int open_count = 2;
  while (open_count > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (auto& entry : fds) {
      if (entry.fd < 0 || entry.revents == 0) continue;
      const ssize_t n = ::read(entry.fd, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(entry.fd);
        entry.fd = -1;
        --open_count;
        continue;
      }
      const std::lock_guard lock(mutex_);
      (entry.fd == err_fd ? stderr_ : stdout_).append(buffer.data(), static_cast<std::size_t>(n));
      changed_.notify_all();
    }
  }
  for (const auto& entry : fds) {
    if (entry.fd >= 0) ::close(entry.fd);
  }
  const std::lock_guard lock(mutex_);
  drained_ = true;
  changed_.notify_all();
}

namespace {

std::size_t count_occurrences(const std::string& haystack, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + needle.size()))
    ++count;
  return count;
}

}  // namespace

bool DaemonProcess::wait_for_log(const std::string& text, Deadline deadline, std::size_t times) {
  std::unique_lock lock(mutex_);
  return changed_.wait_until(lock, deadline.at(), [&] {
    return count_occurrences(stderr_, text) >= times || drained_;
  }) && count_occurrences(stderr_, text) >= times;
}

std::optional<std::vector<std::string>> DaemonProcess::wait_for_log(const std::regex& pattern, Deadline deadline) {
  std::unique_lock lock(mutex_);
  std::smatch match;
  const auto found = [&] { return std::regex_search(stderr_, match, pattern); };
  changed_.wait_until(lock, deadline.at(), [&] { return found() || drained_; });
  if (!found()) return std::nullopt;
  std::vector<std::string> groups;
  for (const auto& group : match) groups.push_back(group.str());
  return groups;
}

std::size_t DaemonProcess::count_in_log(const std::string& text) const {
  const std::lock_guard lock(mutex_);
  return count_occurrences(stderr_, text);
}

std::string DaemonProcess::log() const {
  const std::lock_guard lock(mutex_);
  return stderr_;
}

std::string DaemonProcess::stdout_text() const {
  const std::lock_guard lock(mutex_);
  return stdout_;
}

void DaemonProcess::signal(int signo) const {
  if (pid_ > 0) ::kill(pid_, signo);
}

bool DaemonProcess::running() {
  if (pid_ <= 0 || exit_status_) return false;
  int status = 0;
  const pid_t reaped = ::waitpid(pid_, &status, WNOHANG);
  if (reaped != pid_) return reaped == 0;
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return false;
}

std::optional<int> DaemonProcess::wait_exit(Deadline deadline) {
  if (pid_ <= 0) return std::nullopt;
  while (running()) {
    if (deadline.expired()) return std::nullopt;
    std::this_thread::sleep_for(10ms);
  }
  // The pipes close when the process (the only holder of their write ends) exits.
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline.at(), [&] { return drained_; });
  return exit_status_;
}

long DaemonProcess::status_field(const std::string& key) const {
  std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
  std::string name;
  long value = -1;
  while (status >> name) {
    if (name == key + ":") {
      status >> value;
      return value;
    }
    status.ignore(4096, '\n');
  }
  return -1;
}

}  // namespace mcpud::it
