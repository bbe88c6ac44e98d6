// SPDX-License-Identifier: MIT
// A real mosquitto broker for one test: /usr/sbin/mosquitto on 127.0.0.1 on a
// free port, with a temporary config (persistence off, anonymous or a password
// file, optionally a TLS listener), started and awaited until it accepts
// connections; stop() and start() again keep the port; killed with the test.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

#include "support/deadline.hpp"

namespace mcpud::it {

struct BrokerOptions {
  std::string username;  // non-empty: a password file with this one user, anonymous refused
  std::string password;
  bool tls = false;                  // a TLS listener with a throwaway CA (see ca_file()); needs `openssl`
  bool require_certificate = false;  // with tls: clients must show a certificate of that CA (client_cert())
};

class MosquittoBroker {
 public:
  explicit MosquittoBroker(BrokerOptions options = {});
  // Kills the broker (SIGKILL) and removes its directory.
  ~MosquittoBroker();
  MosquittoBroker(const MosquittoBroker&) = delete;
  MosquittoBroker& operator=(const MosquittoBroker&) = delete;

  // Starts the broker and waits until it accepts TCP connections. The first
  // start picks a free port; later starts reuse it. False (with a test failure) on timeout.
  bool start(Deadline deadline = 10s);
  // SIGTERM and wait: clients see the connection drop.
  void stop();
  // SIGKILL and wait.
  void kill();
  // SIGSTOP / SIGCONT: a broker that keeps its connections but answers nothing.
  void freeze();
  void thaw();
  bool running() const { return pid_ > 0; }

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::filesystem::path dir() const { return dir_; }
  std::string ca_file() const { return (dir_ / "ca.crt").string(); }
  std::string client_cert() const { return (dir_ / "client.crt").string(); }
  std::string client_key() const { return (dir_ / "client.key").string(); }
  std::string log() const;  // the broker's own log so far

 private:
  void write_config() const;
  void make_certificates() const;
  bool spawn();

  BrokerOptions options_;
  std::filesystem::path dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

// True when the broker binary is installed.
bool mosquitto_installed();

}  // namespace mcpud::it
