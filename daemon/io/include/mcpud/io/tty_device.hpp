// SPDX-License-Identifier: MIT
// Telling a serial port from any other file before opening it. A path a client
// names is resolved (symlinks, "..") and must then name, under /dev, a
// character device of a serial or pty-slave tty driver, as the kernel lists
// them in /proc/tty/drivers. Only such a path is opened: open(2) on some
// devices has side effects, and its errors would tell what exists.
// Plain data and functions without state; any thread.
#pragma once

#include <sys/types.h>

#include <expected>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpud::io {

// The drivers of serial ports among the kernel's tty drivers: type "serial"
// (UARTs, USB ACM and USB serial adapters, the USB serial gadget) and
// "pty:slave". Not "system" (/dev/tty, /dev/console, /dev/ptmx), "console"
// (virtual terminals) nor "pty:master".
class TtyDrivers {
 public:
  // From the text of /proc/tty/drivers ("name /dev/node major minors type" per line).
  static TtyDrivers parse(std::string_view text);
  // Reads `proc_root`/tty/drivers; nullopt when it cannot be read.
  static std::optional<TtyDrivers> read(const std::filesystem::path& proc_root = "/proc");

  // Whether `device` (a device number) belongs to a serial port's driver.
  bool drives(dev_t device) const;
  bool empty() const { return ranges_.empty(); }

 private:
  struct Range {
    unsigned major;
    unsigned first_minor;
    unsigned last_minor;
  };
  std::vector<Range> ranges_;
};

// A path that passed the checks: what to open, and what must be there when it is.
struct TtyDevice {
  std::string path;  // canonical, e.g. /dev/ttyACM0 or /dev/pts/3
  dev_t device = 0;
};

// Why a path is not a serial port. Missing: the path (or a directory on its
// way) does not exist. NotASerialPort: anything else (outside /dev, not a
// character device, not a tty of a serial driver, not permitted to look).
enum class PortCheck { Missing, NotASerialPort };

// Resolves `path` (absolute) and checks it names a serial port as above. Only
// stat(2)-like calls: nothing is opened.
std::expected<TtyDevice, PortCheck> resolve_serial_device(const std::string& path, const TtyDrivers& drivers);

}  // namespace mcpud::io
