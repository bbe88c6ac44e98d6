// SPDX-License-Identifier: MIT
// A real mosquitto broker per test.
#include "support/mosquitto_broker.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

namespace mcpud::it {

namespace {

constexpr const char* kBroker = "/usr/sbin/mosquitto";

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
    port = ntohs(address.sin_port);
  ::close(fd);
  return port;
}

bool accepts(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

int run(const std::string& command) { return std::system(command.c_str()); }

}  // namespace

bool mosquitto_installed() { return ::access(kBroker, X_OK) == 0; }

MosquittoBroker::MosquittoBroker(BrokerOptions options) : options_(std::move(options)) {
  std::string pattern = (std::filesystem::temp_directory_path() / "mcpud-broker-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
  dir_ = pattern;
  if (!options_.username.empty()) {
    const auto file = (dir_ / "passwd").string();
    EXPECT_EQ(run("mosquitto_passwd -b -c '" + file + "' '" + options_.username + "' '" + options_.password + "'"), 0);
  }
  if (options_.tls) make_certificates();
}

MosquittoBroker::~MosquittoBroker() {
  kill();
  if (::testing::Test::HasFailure()) std::cerr << "---- mosquitto log ----\n" << log() << "---- end ----\n";
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void MosquittoBroker::make_certificates() const {
  const auto d = "'" + dir_.string() + "'";
  const std::string quiet = " >/dev/null 2>&1";
  EXPECT_EQ(run("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=mcpud-test-ca -keyout " + d +
                "/ca.key -out " + d + "/ca.crt" + quiet),
            0);
  EXPECT_EQ(run("openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout " + d + "/server.key -out " + d +
                "/server.csr" + quiet),
            0);
  std::ofstream(dir_ / "san.ext") << "subjectAltName=IP:127.0.0.1\n";
  EXPECT_EQ(run("openssl x509 -req -in " + d + "/server.csr -CA " + d + "/ca.crt -CAkey " + d +
                "/ca.key -CAcreateserial -days 2 -extfile " + d + "/san.ext -out " + d + "/server.crt" + quiet),
            0);
  EXPECT_EQ(run("openssl req -newkey rsa:2048 -nodes -subj /CN=mcpud-test-client -keyout " + d + "/client.key -out " +
                d + "/client.csr" + quiet),
            0);
  EXPECT_EQ(run("openssl x509 -req -in " + d + "/client.csr -CA " + d + "/ca.crt -CAkey " + d +
                "/ca.key -CAcreateserial -days 2 -out " + d + "/client.crt" + quiet),
            0);
}

void MosquittoBroker::write_config() const {
  std::ofstream out(dir_ / "mosquitto.conf");
  if (::geteuid() == 0) out << "user root\n";  // keep reading this private directory
  out << "persistence false\nset_tcp_nodelay true\n"
      << "log_dest stderr\n"
      << "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
      << "listener " << port_ << " 127.0.0.1\n";
  if (options_.username.empty()) {
    out << "allow_anonymous true\n";
  } else {
    out << "allow_anonymous false\npassword_file " << (dir_ / "passwd").string() << "\n";
  }
  if (options_.tls) {
    out << "cafile " << ca_file() << "\ncertfile " << (dir_ / "server.crt").string() << "\nkeyfile "
        << (dir_ / "server.key").string() << "\n";
    if (options_.require_certificate) out << "require_certificate true\n";
  }
}

bool MosquittoBroker::spawn() {
  write_config();
  const auto log_path = dir_ / "mosquitto.log";
  const auto config = (dir_ / "mosquitto.conf").string();
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive a crashed test
    if (::getppid() != parent) ::_exit(127);
    const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::execl(kBroker, kBroker, "-c", config.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid_ > 0;
}

bool MosquittoBroker::start(Deadline deadline) {
  const bool pick_port = port_ == 0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (pick_port) port_ = free_port();
    if (!spawn()) break;
    while (!deadline.expired()) {
      if (accepts(port_)) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;  // exited: port taken by someone else in the meantime, or still in TIME_WAIT
        break;
      }
      std::this_thread::sleep_for(20ms);
    }
    if (deadline.expired()) break;
    if (!pick_port) std::this_thread::sleep_for(100ms);  // the same port: wait for the old socket to go
  }
  ADD_FAILURE() << "mosquitto did not start on port " << port_ << ":\n" << log();
  kill();
  return false;
}

void MosquittoBroker::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

void MosquittoBroker::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::kill(pid_, SIGCONT);  // a frozen broker dies too
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

void MosquittoBroker::freeze() {
  if (pid_ > 0) ::kill(pid_, SIGSTOP);
}

void MosquittoBroker::thaw() {
  if (pid_ > 0) ::kill(pid_, SIGCONT);
}

std::string MosquittoBroker::log() const {
  std::ifstream in(dir_ / "mosquitto.log");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace mcpud::it
