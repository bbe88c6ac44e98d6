// SPDX-License-Identifier: MIT
// Reading the service manager's environment: which watchdog applies to us, and
// that the variables do not leak to child processes.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "service_notifier.hpp"

namespace mcpud::app {
namespace {

void set_environment(const char* socket, const char* usec, const char* pid) {
  ::unsetenv("NOTIFY_SOCKET");
  ::unsetenv("WATCHDOG_USEC");
  ::unsetenv("WATCHDOG_PID");
  if (socket) ::setenv("NOTIFY_SOCKET", socket, 1);
  if (usec) ::setenv("WATCHDOG_USEC", usec, 1);
  if (pid) ::setenv("WATCHDOG_PID", pid, 1);
}

TEST(NotifyEnvironment, ReadsTheSocketAndTheWatchdogAndClearsThem) {
  set_environment("/run/systemd/notify", "20000000", nullptr);
  const auto environment = take_notify_environment();
  EXPECT_EQ(environment.socket_path, "/run/systemd/notify");
  ASSERT_TRUE(environment.watchdog);
  EXPECT_EQ(environment.watchdog->count(), 20000000);
  EXPECT_EQ(std::getenv("NOTIFY_SOCKET"), nullptr) << "children must not inherit it";
  EXPECT_EQ(std::getenv("WATCHDOG_USEC"), nullptr);
}

TEST(NotifyEnvironment, AWatchdogMeantForThisProcessApplies) {
  set_environment("@notify", "500000", std::to_string(::getpid()).c_str());
  const auto environment = take_notify_environment();
  ASSERT_TRUE(environment.watchdog);
  EXPECT_EQ(environment.watchdog->count(), 500000);
  EXPECT_EQ(std::getenv("WATCHDOG_PID"), nullptr);
}

TEST(NotifyEnvironment, AWatchdogMeantForAnotherProcessIsIgnored) {
  set_environment("/run/systemd/notify", "500000", std::to_string(::getpid() + 1).c_str());
  EXPECT_FALSE(take_notify_environment().watchdog);
}

TEST(NotifyEnvironment, AMalformedOrZeroIntervalMeansNoWatchdog) {
  set_environment("/run/systemd/notify", "soon", nullptr);
  EXPECT_FALSE(take_notify_environment().watchdog);
  set_environment("/run/systemd/notify", "0", nullptr);
  EXPECT_FALSE(take_notify_environment().watchdog);
}

TEST(NotifyEnvironment, NoSocketMeansNotifyingIsOff) {
  set_environment(nullptr, nullptr, nullptr);
  const auto environment = take_notify_environment();
  EXPECT_TRUE(environment.socket_path.empty());
  EXPECT_FALSE(environment.watchdog);
}

}  // namespace
}  // namespace mcpud::app
