// SPDX-License-Identifier: MIT
// mcpud under a service manager: the test plays systemd's side of the notify
// protocol with its own datagram socket in NOTIFY_SOCKET and checks READY,
// STATUS, WATCHDOG, RELOADING and STOPPING as systemd would receive them.
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>

#include "support/configs.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

// A bound AF_UNIX datagram socket that collects notification messages.
class NotifyReceiver {
 public:
  // `path` is a file name, or "@name" for the abstract namespace.
  explicit NotifyReceiver(std::string path) : path_(std::move(path)) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path_.data(), path_.size());
    if (path_.front() == '@') address.sun_path[0] = '\0';
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path_.size());
    bound_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<const sockaddr*>(&address), length) == 0;
  }
  ~NotifyReceiver() {
    if (fd_ >= 0) ::close(fd_);
  }
  NotifyReceiver(const NotifyReceiver&) = delete;
  NotifyReceiver& operator=(const NotifyReceiver&) = delete;

  bool bound() const { return bound_; }
  const std::string& path() const { return path_; }

  // The first message from now on that satisfies `wanted`; every message read
  // on the way is kept in messages().
  std::optional<std::string> wait_for(const std::function<bool(const std::string&)>& wanted, Deadline deadline = 10s) {
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, deadline.poll_ms()) <= 0) return std::nullopt;
      char buffer[4096];
      const auto n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n < 0) return std::nullopt;
      messages_.emplace_back(buffer, static_cast<std::size_t>(n));
      if (wanted(messages_.back())) return messages_.back();
    }
  }
  std::optional<std::string> wait_for(const std::string& text, Deadline deadline = 10s) {
    return wait_for([&](const std::string& m) { return m.find(text) != std::string::npos; }, deadline);
  }
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::string path_;
  int fd_ = -1;
  bool bound_ = false;
  std::vector<std::string> messages_;
};

// Starts `daemon` with NOTIFY_SOCKET (and WATCHDOG_USEC when given) in its
// environment only; returns the TCP port.
int start_notified(DaemonProcess& daemon, const NotifyReceiver& receiver, const char* watchdog_usec = nullptr,
                   std::vector<std::string> args = {}) {
  ::setenv("NOTIFY_SOCKET", receiver.path().c_str(), 1);
  if (watchdog_usec) ::setenv("WATCHDOG_USEC", watchdog_usec, 1);
  const int port = daemon.start_tcp(std::move(args));
  ::unsetenv("NOTIFY_SOCKET");
  ::unsetenv("WATCHDOG_USEC");
  return port;
}

TEST(Notify, ReadyComesAfterTheListenerIsBoundWithAStatusLine) {
  DaemonProcess daemon;
  NotifyReceiver systemd((daemon.temp_dir().path() / "notify").string());
  ASSERT_TRUE(systemd.bound());
  const int port = start_notified(daemon, systemd);
  ASSERT_NE(port, 0);
  const auto ready = systemd.wait_for("READY=1");
  ASSERT_TRUE(ready) << "no READY=1 received";
  EXPECT_TRUE(contains(*ready, "STATUS=0 clients (tcp 0, tty 0); 16 pins, "));
  // READY=1 promises the listener is bound: connecting right away must work.
  auto client = LineClient::connect_tcp(port);
  ASSERT_TRUE(client);
  EXPECT_TRUE(client->result("get_info").is_object());
}

TEST(Notify, WatchdogPingsKeepComingAndTheStatusCountsClients) {
  DaemonProcess daemon;
  NotifyReceiver systemd((daemon.temp_dir().path() / "notify").string());
  ASSERT_TRUE(systemd.bound());
  const int port = start_notified(daemon, systemd, "200000");  // 0.2 s: a ping every 0.1 s
  ASSERT_NE(port, 0);
  ASSERT_TRUE(systemd.wait_for("READY=1"));
  ASSERT_TRUE(systemd.wait_for("WATCHDOG=1"));
  ASSERT_TRUE(systemd.wait_for("WATCHDOG=1")) << "the watchdog ping repeats";

  auto first = LineClient::connect_tcp(port);
  auto second = LineClient::connect_tcp(port);
  ASSERT_TRUE(first && second);
  ASSERT_TRUE(first->result("get_info").is_object());
  ASSERT_TRUE(second->result("get_info").is_object());
  const auto busy = systemd.wait_for("STATUS=2 clients (tcp 2, tty 0)");
  ASSERT_TRUE(busy) << "status never showed two clients";
  EXPECT_TRUE(contains(*busy, "WATCHDOG=1")) << "status changes ride on watchdog pings";

  second.reset();
  EXPECT_TRUE(systemd.wait_for("STATUS=1 clients (tcp 1, tty 0)")) << "a client that left is no longer counted";
}

TEST(Notify, SighupIsBracketedByReloadingAndReady) {
  DaemonProcess daemon;
  NotifyReceiver systemd((daemon.temp_dir().path() / "notify").string());
  ASSERT_TRUE(systemd.bound());
  const auto config = daemon.write_file("mcpud.toml", sim_config_toml());
  ASSERT_NE(start_notified(daemon, systemd, nullptr, {"--config", config}), 0);
  ASSERT_TRUE(systemd.wait_for("READY=1"));

  daemon.signal(SIGHUP);
  const auto reloading = systemd.wait_for("RELOADING=1");
  ASSERT_TRUE(reloading);
  EXPECT_TRUE(contains(*reloading, "MONOTONIC_USEC="));
  EXPECT_TRUE(systemd.wait_for("READY=1")) << "READY=1 again once the reload is done";
  EXPECT_TRUE(daemon.wait_for_log("reloaded: 5 pins"));
}

TEST(Notify, SigtermSendsStoppingAndTheDaemonExits) {
  DaemonProcess daemon;
  NotifyReceiver systemd((daemon.temp_dir().path() / "notify").string());
  ASSERT_TRUE(systemd.bound());
  ASSERT_NE(start_notified(daemon, systemd, "1000000"), 0);
  ASSERT_TRUE(systemd.wait_for("READY=1"));
  daemon.signal(SIGTERM);
  EXPECT_TRUE(systemd.wait_for("STOPPING=1"));
  EXPECT_EQ(daemon.wait_exit(10s), 0);
}

TEST(Notify, AnAbstractNotifySocketWorksToo) {
  std::random_device random;
  NotifyReceiver systemd("@mcpud-notify-test-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
  ASSERT_TRUE(systemd.bound());
  DaemonProcess daemon;
  ASSERT_NE(start_notified(daemon, systemd), 0);
  EXPECT_TRUE(systemd.wait_for("READY=1"));
}

}  // namespace
}  // namespace mcpud::it
