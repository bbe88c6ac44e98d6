// SPDX-License-Identifier: MIT
// Test support: start mcu-sim or mcu-simavr, talk MCP/U on its pty and drive its side channel.
#include "support/serial_device.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>

namespace mcpu_test {
namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

int msLeft(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// Reads from fd into buffer until a newline; "" at the deadline.
std::string lineFrom(int fd, std::string& buffer, Clock::time_point deadline) {
  for (;;) {
    const auto nl = buffer.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer.substr(0, nl);
      buffer.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, msLeft(deadline)) <= 0) return "";
    char chunk[4096];
    const ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n <= 0 && !(n < 0 && errno == EAGAIN)) return "";
    if (n > 0) buffer.append(chunk, static_cast<size_t>(n));
  }
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
  pid_ = fork();
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  in_ = in[1];
  out_ = out[0];
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status;
    waitpid(pid_, &status, 0);
  }
  close(in_);
  close(out_);
}

void ChildProcess::send(const std::string& line) {
  const std::string bytes = line + "\n";
  if (::write(in_, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
    throw std::runtime_error("side channel write failed");
  }
}

std::string ChildProcess::readLine(double deadline_s) { return lineFrom(out_, buffer_, after(deadline_s)); }

bool ChildProcess::waitFor(const std::string& line, double deadline_s) {
  const auto deadline = after(deadline_s);
  while (Clock::now() < deadline) {
    if (lineFrom(out_, buffer_, deadline) == line) return true;
  }
  return false;
}

PtyClient::PtyClient(const std::string& path) {
  fd_ = open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK);
  if (fd_ < 0) throw std::runtime_error("cannot open " + path);
  termios t;
  tcgetattr(fd_, &t);
  cfmakeraw(&t);
  tcsetattr(fd_, TCSANOW, &t);
}

PtyClient::~PtyClient() { close(fd_); }

void PtyClient::write(const std::string& bytes, bool byte_by_byte) {
  size_t done = 0;
  while (done < bytes.size()) {
    const size_t chunk = byte_by_byte ? 1 : bytes.size() - done;
    const ssize_t n = ::write(fd_, bytes.data() + done, chunk);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else {
      pollfd pfd{fd_, POLLOUT, 0};
      poll(&pfd, 1, 100);
    }
  }
}

std::string PtyClient::readLine(double deadline_s) { return lineFrom(fd_, buffer_, after(deadline_s)); }

nlohmann::json PtyClient::call(const nlohmann::json& request, double deadline_s, bool byte_by_byte) {
  write(request.dump() + "\n", byte_by_byte);
  const auto deadline = after(deadline_s);
  while (Clock::now() < deadline) {
    const std::string line = lineFrom(fd_, buffer_, deadline);
    const auto reply = nlohmann::json::parse(line, nullptr, false);
    if (!reply.is_discarded() && reply.is_object() && reply.value("id", nlohmann::json()) == request["id"]) {
      return reply;
    }
  }
  return nlohmann::json();
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "mcu-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

namespace {
std::vector<std::string> withLink(std::vector<std::string> argv, const std::string& link) {
  argv.push_back("--link");
  argv.push_back(link);
  return argv;
}

std::string waitForPty(ChildProcess& p, const std::string& link) {
  const auto deadline = after(30);
  while (Clock::now() < deadline) {
    const std::string line = p.readLine(msLeft(deadline) / 1000.0);
    if (line.rfind("pty ", 0) == 0) return link;
  }
  throw std::runtime_error("the device did not print its pty");
}
}  // namespace

SerialDevice::SerialDevice(std::vector<std::string> argv)
    : link(dir.path() + "/tty"), process(withLink(std::move(argv), link)), client(waitForPty(process, link)) {}

}  // namespace mcpu_test
