// SPDX-License-Identifier: MIT
// Which device nodes are serial ports: /proc/tty/drivers read and parsed, paths
// resolved and checked, and a checked device opened only if it is still the one.
#include "mcpud/io/tty_device.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "mcpud/io/port_open.hpp"

namespace mcpud::io {
namespace {

// As a PC's kernel lists them.
constexpr const char* kDrivers = R"(/dev/tty             /dev/tty        5       0 system:/dev/tty
/dev/console         /dev/console    5       1 system:console
/dev/ptmx            /dev/ptmx       5       2 system
/dev/vc/0            /dev/vc/0       4       0 system:vtmaster
acm                  /dev/ttyACM   166 0-255 serial
serial               /dev/ttyS       4 64-111 serial
pty_slave            /dev/pts      136 0-1048575 pty:slave
pty_master           /dev/ptm      128 0-1048575 pty:master
unknown              /dev/tty        4 1-63 console
)";

// A pty whose slave stays closed (opened by path in the tests); closes its master.
class Pty {
 public:
  Pty() : master_(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) {
    if (master_ >= 0 && ::grantpt(master_) == 0 && ::unlockpt(master_) == 0) slave_ = ::ptsname(master_);
  }
  ~Pty() {
    if (master_ >= 0) ::close(master_);
  }
  Pty(const Pty&) = delete;
  Pty& operator=(const Pty&) = delete;
  const std::string& slave() const { return slave_; }

 private:
  int master_;
  std::string slave_;
};

class TempDir {
 public:
  TempDir() {
    std::string name = (std::filesystem::temp_directory_path() / "tty-device-XXXXXX").string();
    path_ = ::mkdtemp(name.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(TtyDrivers, OnlySerialAndPtySlaveDriversCount) {
  const auto drivers = TtyDrivers::parse(kDrivers);
  EXPECT_TRUE(drivers.drives(makedev(166, 0)));      // ttyACM0
  EXPECT_TRUE(drivers.drives(makedev(4, 64)));       // ttyS0
  EXPECT_TRUE(drivers.drives(makedev(136, 70000)));  // /dev/pts/70000
  EXPECT_FALSE(drivers.drives(makedev(4, 112)));     // past ttyS's minors
  EXPECT_FALSE(drivers.drives(makedev(5, 0)));       // /dev/tty
  EXPECT_FALSE(drivers.drives(makedev(5, 1)));       // /dev/console
  EXPECT_FALSE(drivers.drives(makedev(5, 2)));       // /dev/ptmx
  EXPECT_FALSE(drivers.drives(makedev(4, 1)));       // tty1, a virtual terminal
  EXPECT_FALSE(drivers.drives(makedev(128, 3)));     // a pty master
  EXPECT_FALSE(drivers.drives(makedev(1, 3)));       // /dev/null
}

TEST(TtyDrivers, MalformedLinesAreSkipped) {
  const auto drivers = TtyDrivers::parse("garbage\nacm /dev/ttyACM x 0-255 serial\nacm /dev/ttyACM 166 9-3 serial\n");
  EXPECT_TRUE(drivers.empty());
  EXPECT_TRUE(TtyDrivers::parse("my driver /dev/ttyX 200 0 serial").drives(makedev(200, 0)));  // counted from the end
}

TEST(TtyDrivers, ReadFromAProcRootOrNothing) {
  TempDir proc;
  std::filesystem::create_directories(proc.path() / "tty");
  std::ofstream(proc.path() / "tty" / "drivers") << kDrivers;
  const auto drivers = TtyDrivers::read(proc.path());
  ASSERT_TRUE(drivers);
  EXPECT_TRUE(drivers->drives(makedev(166, 3)));
  EXPECT_FALSE(TtyDrivers::read(proc.path() / "missing"));
}

TEST(ResolveSerialDevice, APtySlaveByItsPathOrALinkIsAPort) {
  Pty pty;
  ASSERT_FALSE(pty.slave().empty());
  const auto drivers = TtyDrivers::read();
  ASSERT_TRUE(drivers) << "no /proc/tty/drivers";
  TempDir dir;
  std::filesystem::create_symlink(pty.slave(), dir.path() / "ttyLINK");
  const auto device = resolve_serial_device((dir.path() / "ttyLINK").string(), *drivers);
  ASSERT_TRUE(device);
  EXPECT_EQ(device->path, pty.slave());
  struct stat st {};
  ASSERT_EQ(::stat(pty.slave().c_str(), &st), 0);
  EXPECT_EQ(device->device, st.st_rdev);
}

TEST(ResolveSerialDevice, EverythingElseIsRefusedAndOnlyAbsenceIsToldApart) {
  const auto drivers = TtyDrivers::parse(kDrivers + std::string("pty_slave /dev/pts 136 0-1048575 pty:slave\n"));
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0600), 0);
  std::ofstream(dir.path() / "file") << "text";
  std::filesystem::create_symlink("/etc/passwd", dir.path() / "link");
  for (const std::string& path :
       {(dir.path() / "fifo").string(), (dir.path() / "file").string(), (dir.path() / "link").string(),
        std::string("/dev/null"), std::string("/dev/ptmx"), std::string("/dev/tty"), std::string("/dev/../etc/passwd"),
        std::string("dev/null"), dir.path().string()}) {
    const auto device = resolve_serial_device(path, drivers);
    ASSERT_FALSE(device) << path;
    EXPECT_EQ(device.error(), PortCheck::NotASerialPort) << path;
  }
  for (const std::string& path :
       {(dir.path() / "none").string(), std::string("/dev/ttyNOPE0"), (dir.path() / "file" / "below").string()}) {
    const auto device = resolve_serial_device(path, drivers);
    ASSERT_FALSE(device) << path;
    EXPECT_EQ(device.error(), PortCheck::Missing) << path;
  }
}

TEST(OpenSerialDevice, OpensTheCheckedDeviceAndNothingElse) {
  Pty pty;
  ASSERT_FALSE(pty.slave().empty());
  struct stat st {};
  ASSERT_EQ(::stat(pty.slave().c_str(), &st), 0);
  auto opened = open_serial_device({pty.slave(), st.st_rdev}, PortSettings{});
  ASSERT_TRUE(opened) << opened.error().message;
  EXPECT_TRUE(::isatty(opened->fd.get()));

  Pty other;
  const auto swapped = open_serial_device({other.slave(), st.st_rdev}, PortSettings{});
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().name, "OPEN_ERROR");
  EXPECT_NE(swapped.error().message.find("changed while it was opened"), std::string::npos);
}

}  // namespace
}  // namespace mcpud::io
