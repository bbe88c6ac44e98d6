// SPDX-License-Identifier: MIT
// The shipped system bus policy (config/dbus/io.mcpud.Daemon1.conf) on a private
// system-type dbus-daemon: root calls methods, nobody may only introspect and
// read properties, and nobody cannot take mcpud's name.
#include <unistd.h>

#include <filesystem>

#include "bus_daemon.hpp"
#include "ctl_run.hpp"
#include "support/fixtures.hpp"

namespace mcpud::it {
namespace {

class DbusPolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "the policy tests switch to user nobody, which needs root";
    ASSERT_FALSE(bus_.address().empty());
    bus_.export_address();
    // Copies nobody can execute (the build tree may sit below a private directory).
    for (const auto* binary : {MCPUD_BINARY, MCPUCTL_BINARY}) {
      const auto target = bus_.directory() / std::filesystem::path(binary).filename();
      std::filesystem::copy_file(binary, target, std::filesystem::copy_options::overwrite_existing);
      std::filesystem::permissions(target, std::filesystem::perms(0755));
    }
    ASSERT_NE(daemon_.start_tcp({"--dbus=system"}), 0);
    ASSERT_TRUE(daemon_.wait_for_log("serving io.mcpud.Daemon1 on the system bus")) << daemon_.log();
  }

  std::string copy_of(const char* binary) const {
    return (bus_.directory() / std::filesystem::path(binary).filename()).string();
  }
  CtlOutput ctl_as_nobody(std::vector<std::string> args) {
    args.insert(args.begin(), "--bus=system");
    return run_program("/usr/bin/setpriv", as_nobody(copy_of(MCPUCTL_BINARY), args));
  }
  CtlOutput busctl_as_nobody(std::vector<std::string> args) {
    args.insert(args.begin(), "--address=" + bus_.address());
    return run_program("/usr/bin/setpriv", as_nobody("/usr/bin/busctl", args));
  }

  BusDaemon bus_{BusDaemon::Kind::System, MCPUD_DBUS_POLICY};
  DaemonProcess daemon_;
};

TEST_F(DbusPolicy, RootMayCallMethods) {
  const auto status = run_ctl({"--bus=system", "status", "--json"});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_EQ(status.json()["bus"], "system");
  EXPECT_EQ(run_ctl({"--bus=system", "call", "gpio_write", "pin=2", "value=true"}).exit_code, 0);
}

TEST_F(DbusPolicy, OthersAreRefusedMethodCalls) {
  const auto status = ctl_as_nobody({"status"});
  EXPECT_EQ(status.exit_code, 1);
  EXPECT_TRUE(contains(status.err, "mcpuctl: access denied: ")) << status.err;
  EXPECT_TRUE(contains(status.err, "(calls need root or membership in group 'mcpud')")) << status.err;
  EXPECT_EQ(ctl_as_nobody({"call", "gpio_write", "pin=2", "value=true"}).exit_code, 1);
  EXPECT_EQ(ctl_as_nobody({"reload"}).exit_code, 1);
}

TEST_F(DbusPolicy, OthersMayIntrospectAndReadProperties) {
  const auto version =
      busctl_as_nobody({"get-property", "io.mcpud.Daemon1", "/io/mcpud/Daemon1", "io.mcpud.Daemon1", "DeviceName"});
  EXPECT_EQ(version.exit_code, 0) << version.err;
  EXPECT_EQ(version.out, "s \"mcpud-sim\"\n");
  const auto introspect = busctl_as_nobody({"introspect", "io.mcpud.Daemon1", "/io/mcpud/Daemon1"});
  EXPECT_EQ(introspect.exit_code, 0) << introspect.err;
  EXPECT_TRUE(contains(introspect.out, ".CallTool"));
}

TEST_F(DbusPolicy, OthersCannotTakeTheName) {
  DaemonProcess impostor;
  ASSERT_TRUE(impostor.start_program("/usr/bin/setpriv",
                                     as_nobody(copy_of(MCPUD_BINARY), {"--dbus=system", "--listen", "127.0.0.1:0"})));
  ASSERT_TRUE(impostor.wait_for_log("continuing without D-Bus control")) << impostor.log();
  EXPECT_TRUE(contains(impostor.log(), "cannot serve io.mcpud.Daemon1 on the system bus")) << impostor.log();
  EXPECT_TRUE(contains(impostor.log(), "org.freedesktop.DBus.Error.AccessDenied")) << impostor.log();
}

}  // namespace
}  // namespace mcpud::it
