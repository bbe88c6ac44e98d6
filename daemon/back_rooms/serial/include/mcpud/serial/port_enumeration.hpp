// SPDX-License-Identifier: MIT
// Finding the serial ports of the board: every tty in sysfs that has a driver
// and real hardware behind it, with USB identity and the stable
// /dev/serial/by-id and by-path names udev made for it.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mcpud::serial {

struct UsbIdentity {
  std::string vendor_id;   // "0483"
  std::string product_id;  // "374b"
  std::string manufacturer;
  std::string product;
  std::string serial_number;
  std::string interface;  // "00" when the device has several
};

struct PortInfo {
  std::string name;         // device path, e.g. /dev/ttyACM0
  std::string description;  // human-readable
  std::string kind;         // "usb", "platform", "pnp", "gadget", "configured", ...
  std::string driver;       // kernel driver, e.g. cdc_acm, ftdi_sio, uart-pl011
  std::optional<UsbIdentity> usb;
  std::vector<std::string> by_id;
  std::vector<std::string> by_path;
  std::string target;  // for configured ports: the resolved device (e.g. /dev/pts/3)
};

struct EnumerationRoots {
  std::string sysfs = "/sys";
  std::string dev = "/dev";
};

// Ports found in <sysfs>/class/tty, then the `extra` paths or globs (ptys and
// links a user listed in [serial] ports) that exist and are ttys, sorted by
// name. Never fails: an unreadable entry is skipped.
std::vector<PortInfo> enumerate_ports(const EnumerationRoots& roots, const std::vector<std::string>& extra);

}  // namespace mcpud::serial
