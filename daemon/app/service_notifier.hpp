// SPDX-License-Identifier: MIT
// Tells the service manager (systemd) how the daemon is doing: READY, RELOADING,
// STOPPING, STATUS lines and watchdog pings, over the NOTIFY_SOCKET datagram socket.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace mcpud::app {

// What the environment asked for; read once at start-up.
struct NotifyEnvironment {
  std::string socket_path;                            // NOTIFY_SOCKET; "@..." is abstract; empty: off
  std::optional<std::chrono::microseconds> watchdog;  // WATCHDOG_USEC, when meant for this process
};

// Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID and removes them from the
// environment so child processes do not talk to the service manager in our name.
NotifyEnvironment take_notify_environment();

// The systemd notification protocol without libsystemd: one datagram per message,
// "KEY=VALUE" lines. Every call is a no-op when the daemon was not started with
// NOTIFY_SOCKET. Sending never blocks; a message the socket cannot take now is
// dropped (the next watchdog tick repeats the status). Single-threaded.
class ServiceNotifier {
 public:
  // `status` describes the daemon in one line (clients, pins, tools); it is sent
  // with READY and again on a watchdog tick whenever it changed.
  ServiceNotifier(boost::asio::io_context& io, NotifyEnvironment environment, std::function<std::string()> status);
  ~ServiceNotifier();
  ServiceNotifier(const ServiceNotifier&) = delete;
  ServiceNotifier& operator=(const ServiceNotifier&) = delete;

  // READY=1 with the status; starts the watchdog pings (every half WATCHDOG_USEC).
  void ready();
  // RELOADING=1 before a reload; call ready() when it is done.
  void reloading();
  // STOPPING=1; stops the watchdog pings.
  void stopping();

  bool enabled() const { return fd_ >= 0; }

 private:
  void send(std::string_view message);
  std::string status_line();
  void schedule_watchdog();

  NotifyEnvironment environment_;
  std::function<std::string()> status_;
  boost::asio::steady_timer watchdog_timer_;
  std::string last_status_;
  int fd_ = -1;
  bool watchdog_running_ = false;
};

}  // namespace mcpud::app
