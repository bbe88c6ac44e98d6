// SPDX-License-Identifier: MIT
// The systemd notification protocol over an AF_UNIX datagram socket.
#include "service_notifier.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "mcpud/core/log.hpp"

namespace mcpud::app {
namespace {

std::optional<unsigned long long> parse_number(const char* text) {
  if (text == nullptr) return std::nullopt;
  const std::string_view view(text);
  unsigned long long value = 0;
  const auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (ec != std::errc{} || end != view.data() + view.size()) return std::nullopt;
  return value;
}

// CLOCK_MONOTONIC in microseconds, as systemd wants with RELOADING=1.
unsigned long long monotonic_usec() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<unsigned long long>(now.tv_sec) * 1000000ULL + static_cast<unsigned long long>(now.tv_nsec) / 1000;
}

}  // namespace

NotifyEnvironment take_notify_environment() {
  NotifyEnvironment environment;
  if (const char* socket = std::getenv("NOTIFY_SOCKET")) environment.socket_path = socket;
  const auto usec = parse_number(std::getenv("WATCHDOG_USEC"));
  const auto pid = parse_number(std::getenv("WATCHDOG_PID"));
  // WATCHDOG_PID names the process the watchdog is meant for; absent means us.
  const bool for_us = !std::getenv("WATCHDOG_PID") || (pid && *pid == static_cast<unsigned long long>(getpid()));
  if (usec && *usec > 0 && for_us) environment.watchdog = std::chrono::microseconds(*usec);
  ::unsetenv("NOTIFY_SOCKET");
  ::unsetenv("WATCHDOG_USEC");
  ::unsetenv("WATCHDOG_PID");
  return environment;
}

ServiceNotifier::ServiceNotifier(boost::asio::io_context& io, NotifyEnvironment environment,
                                 std::function<std::string()> status)
    : environment_(std::move(environment)), status_(std::move(status)), watchdog_timer_(io) {
  const auto& path = environment_.socket_path;
  if (path.empty()) return;
  if (path.front() != '/' && path.front() != '@') {
    log::warn("notify", "NOTIFY_SOCKET=", path, ": only unix socket paths are supported; not notifying");
    return;
  }
  if (path.size() >= sizeof(sockaddr_un::sun_path)) {
    log::warn("notify", "NOTIFY_SOCKET=", path, ": path too long; not notifying");
    return;
  }
  fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) log::warn("notify", "cannot create the notification socket: ", std::strerror(errno));
}

ServiceNotifier::~ServiceNotifier() {
  if (fd_ >= 0) ::close(fd_);
}

void ServiceNotifier::send(std::string_view message) {
  if (fd_ < 0) return;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const auto& path = environment_.socket_path;
  std::memcpy(address.sun_path, path.data(), path.size());
  if (path.front() == '@') address.sun_path[0] = '\0';  // abstract namespace: no terminator counted
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size());
  if (::sendto(fd_, message.data(), message.size(), MSG_NOSIGNAL, reinterpret_cast<const sockaddr*>(&address), length) <
      0) {
    log::debug("notify", "cannot notify the service manager: ", std::strerror(errno));
  }
}

std::string ServiceNotifier::status_line() {
  last_status_ = status_ ? status_() : std::string();
  return "STATUS=" + last_status_;
}

void ServiceNotifier::ready() {
  if (fd_ < 0) return;
  send("READY=1\n" + status_line());
  if (environment_.watchdog && !watchdog_running_) {
    watchdog_running_ = true;
    schedule_watchdog();
  }
}

void ServiceNotifier::reloading() { send("RELOADING=1\nMONOTONIC_USEC=" + std::to_string(monotonic_usec())); }

void ServiceNotifier::stopping() {
  watchdog_running_ = false;
  watchdog_timer_.cancel();
  send("STOPPING=1");
}

// The ping comes from the event loop itself, so a stuck loop stops it and
// systemd restarts the service.
void ServiceNotifier::schedule_watchdog() {
  watchdog_timer_.expires_after(*environment_.watchdog / 2);
  watchdog_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec || !watchdog_running_) return;
    std::string message = "WATCHDOG=1";
    if (auto now = status_ ? status_() : std::string(); now != last_status_) {
      last_status_ = std::move(now);
      message += "\nSTATUS=" + last_status_;
    }
    send(message);
    schedule_watchdog();
  });
}

}  // namespace mcpud::app
