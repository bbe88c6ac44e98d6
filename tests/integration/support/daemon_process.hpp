// SPDX-License-Identifier: MIT
// Runs the real mcpud binary as a child process for one test: its own process
// group, stdout and stderr drained by a background thread into buffers the test
// can wait on, a private temporary directory for config files and symlinks.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "support/deadline.hpp"

namespace mcpud::it {

// A directory made with mkdtemp and removed, with everything in it, on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes (or replaces, atomically by rename) a file in the directory; returns its path.
  std::string write_file(const std::string& name, const std::string& contents) const;

 private:
  std::filesystem::path path_;
};

class DaemonProcess {
 public:
  DaemonProcess();
  // Kills the process group (SIGKILL) if still running; prints the daemon's
  // output when the current test has failed.
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  // The per-test temporary directory (exists before start()).
  TempDir& temp_dir() { return dir_; }
  std::string write_file(const std::string& name, const std::string& contents) {
    return dir_.write_file(name, contents);
  }

  // fork/exec MCPUD_BINARY with `args` (plus --dbus=none unless `args` choose a
  // bus, so tests never touch the machine's system bus). Fails the test (and
  // returns false) if it cannot.
  bool start(const std::vector<std::string>& args);
  // fork/exec any program the same way (e.g. mcpuctl), with `args` as given.
  bool start_program(const std::string& program, const std::vector<std::string>& args);
  // start() with `--listen 127.0.0.1:0` added, then waits for the listening line.
  // Returns the TCP port, or 0 (with a test failure) if it never appeared.
  int start_tcp(std::vector<std::string> args = {}, Deadline deadline = 10s);

  // The port from "listening on 127.0.0.1:PORT (MCP/U over TCP)"; 0 on timeout.
  int wait_for_port(Deadline deadline = 10s);
  int port() const { return port_; }

  // True once the daemon's stderr contains `text` at least `times` times.
  bool wait_for_log(const std::string& text, Deadline deadline = 10s, std::size_t times = 1);
  // The first match of `pattern` in the daemon's stderr (submatches in order).
  std::optional<std::vector<std::string>> wait_for_log(const std::regex& pattern, Deadline deadline = 10s);
  std::size_t count_in_log(const std::string& text) const;

  std::string log() const;  // everything on stderr so far
  std::string stdout_text() const;

  void signal(int signo) const;
  // The exit code (or 128 + signal number), or nullopt if still running at the deadline.
  // Also waits for the output pipes to be drained.
  std::optional<int> wait_exit(Deadline deadline = 10s);
  bool running();
  pid_t pid() const { return pid_; }
  // A field of the process's /proc/PID/status (VmRSS in kB,
  // voluntary_ctxt_switches), -1 if absent.
  long status_field(const std::string& key) const;

 private:
  void drain(int out_fd, int err_fd);

  TempDir dir_;
  pid_t pid_ = -1;
  int port_ = 0;
  std::optional<int> exit_status_;
  std::thread reader_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string stderr_;
  std::string stdout_;
  bool drained_ = false;
};

}  // namespace mcpud::it
