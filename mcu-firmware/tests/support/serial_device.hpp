// SPDX-License-Identifier: MIT
// Test support: start mcu-sim or mcu-simavr, talk MCP/U on its pty and drive its side channel.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpu_test {

// A child process with its stdin and stdout on pipes; killed and reaped on destruction.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  void send(const std::string& line);  // one side-channel command
  // The next stdout line, or "" when none arrives before the deadline (seconds).
  std::string readLine(double deadline_s);
  // Reads stdout lines until one equals `line` (true) or the deadline passes (false).
  bool waitFor(const std::string& line, double deadline_s);

 private:
  int pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_;
};

// An open pty in raw mode.
class PtyClient {
 public:
  explicit PtyClient(const std::string& path);
  ~PtyClient();
  PtyClient(const PtyClient&) = delete;
  PtyClient& operator=(const PtyClient&) = delete;

  void write(const std::string& bytes, bool byte_by_byte = false);
  // The next line, or "" at the deadline.
  std::string readLine(double deadline_s);
  // Sends a request and returns the parsed reply to it (null json at the deadline).
  nlohmann::json call(const nlohmann::json& request, double deadline_s = 10, bool byte_by_byte = false);

 private:
  int fd_ = -1;
  std::string buffer_;
};

// A temporary directory removed (with its contents) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Starts a device program whose first stdout line is "pty <path>", with --link in a
// temporary directory; then opens the link.
struct SerialDevice {
  SerialDevice(std::vector<std::string> argv);
  TempDir dir;
  std::string link;
  ChildProcess process;
  PtyClient client;
};

}  // namespace mcpu_test
