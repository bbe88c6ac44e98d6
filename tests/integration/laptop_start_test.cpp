// SPDX-License-Identifier: MIT
// `make run` on a laptop: mcpud on the built-in board, without /run/mcpud (the
// packaged service makes it) and without a bus to serve D-Bus on, says so at
// info level, with no warning a newcomer would take for an error.
#include <cstdlib>
#include <filesystem>

#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

// Sets an environment variable for the daemons started while it lives.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(LaptopStart, NoRunDirectoryAndNoBusAreSaidAtInfoLevelNotAsWarnings) {
  if (std::filesystem::is_directory("/run/mcpud")) {
    GTEST_SKIP() << "/run/mcpud exists on this machine (an installed mcpud's): a laptop's start cannot be played";
  }
  DaemonProcess daemon;
  const ScopedEnvironment no_bus("DBUS_SESSION_BUS_ADDRESS",
                                 "unix:path=" + (daemon.temp_dir().path() / "no-bus-here").string());
  ASSERT_NE(daemon.start_tcp({"--dbus=session"}), 0);
  ASSERT_TRUE(daemon.wait_for_log(" ready: ")) << daemon.log();
  const auto log = daemon.log();
  EXPECT_TRUE(contains(log, "info [unix] no /run/mcpud (the packaged service makes it)"));
  EXPECT_TRUE(contains(log, "info [dbus] cannot serve io.mcpud.Daemon1 on the session bus"));
  EXPECT_TRUE(contains(log, "continuing without D-Bus control"));
  EXPECT_FALSE(contains(log, "warning")) << "a newcomer takes a warning for an error";
}

}  // namespace
}  // namespace mcpud::it
