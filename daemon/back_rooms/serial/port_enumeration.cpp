// SPDX-License-Identifier: MIT
// Port enumeration from sysfs: the same attributes libudev reads, read
// directly so that the root can point at a copy of a board's /sys in tests.
#include "mcpud/serial/port_enumeration.hpp"

#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace mcpud::serial {
namespace {

namespace fs = std::filesystem;

std::string read_attr(const fs::path& path) {
  std::ifstream in(path);
  std::string value;
  std::getline(in, value);
  while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) value.pop_back();
  return value;
}

std::string link_name(const fs::path& link) {
  std::error_code ec;
  const auto target = fs::read_symlink(link, ec);
  return ec ? std::string() : target.filename().string();
}

// 8250 port types (include/uapi/linux/serial.h) with the names setserial uses.
std::string uart_type_name(const std::string& type) {
  static const char* const kNames[] = {"unknown", "8250",  "16450",    "16550",  "16550A", "Cirrus", "16650",
                                       "16650V2", "16750", "Startech", "16C950", "16654",  "16850",  "RSA"};
  const int n = std::atoi(type.c_str());
  return n >= 0 && n < static_cast<int>(std::size(kNames)) ? kNames[n] : "UART type " + type;
}

// Walks up from the tty's device to the USB device that carries idVendor.
std::optional<UsbIdentity> usb_identity(const fs::path& device, const fs::path& sysfs) {
  std::error_code ec;
  fs::path dir = fs::canonical(device, ec);
  if (ec) return std::nullopt;
  const auto root = fs::canonical(sysfs, ec);
  UsbIdentity id;
  for (; !dir.empty() && dir != root && dir != dir.root_path(); dir = dir.parent_path()) {
    if (id.interface.empty() && fs::exists(dir / "bInterfaceNumber"))
      id.interface = read_attr(dir / "bInterfaceNumber");
    if (!fs::exists(dir / "idVendor")) continue;
    id.vendor_id = read_attr(dir / "idVendor");
    id.product_id = read_attr(dir / "idProduct");
    id.manufacturer = read_attr(dir / "manufacturer");
    id.product = read_attr(dir / "product");
    id.serial_number = read_attr(dir / "serial");
    return id;
  }
  return std::nullopt;
}

std::string describe(const PortInfo& port, const std::string& tty, const fs::path& entry) {
  if (port.usb) {
    std::string text = port.usb->product.empty() ? "USB serial device" : port.usb->product;
    if (!port.usb->manufacturer.empty()) text = port.usb->manufacturer + " " + text;
    return text + " (" + port.usb->vendor_id + ":" + port.usb->product_id + ", " + port.driver + ")";
  }
  if (tty.starts_with("ttyGS")) return "USB serial gadget: this board seen as a USB serial device by a host";
  if (tty.starts_with("ttyAMA")) return "ARM PL011 UART (" + port.driver + ")";
  if (fs::exists(entry / "type")) return uart_type_name(read_attr(entry / "type")) + " UART (" + port.driver + ")";
  return "serial port (" + port.driver + ")";
}

std::optional<PortInfo> sysfs_port(const fs::path& entry, const EnumerationRoots& roots) {
  const std::string tty = entry.filename().string();
  const fs::path device = entry / "device";
  std::error_code ec;
  if (!fs::exists(device, ec)) return std::nullopt;  // virtual: tty0, console, ptmx
  PortInfo port;
  // Since Linux 6.5 a UART's tty hangs off a "serial-base" port device whose
  // driver is generic ("port"); the hardware driver sits two levels up.
  fs::path hardware = fs::canonical(device, ec);
  if (ec) return std::nullopt;
  for (int up = 0; up < 2 && link_name(hardware / "subsystem") == "serial-base"; ++up)
    hardware = hardware.parent_path();
  port.driver = link_name(hardware / "driver");
  if (port.driver.empty()) return std::nullopt;  // no driver bound: not usable
  // The 8250 driver registers placeholder ports with no UART behind them (type 0).
  if (fs::exists(entry / "type", ec) && read_attr(entry / "type") == "0") return std::nullopt;
  port.name = (fs::path(roots.dev) / tty).string();
  port.usb = usb_identity(device, roots.sysfs);
  port.kind = port.usb ? "usb" : tty.starts_with("ttyGS") ? "gadget" : link_name(hardware / "subsystem");
  port.description = describe(port, tty, entry);
  return port;
}

// Links in <dev>/serial/by-id (or by-path) that point at `device`.
void add_links(std::vector<PortInfo>& ports, const fs::path& dir, std::vector<std::string> PortInfo::*field) {
  std::error_code ec;
  for (const auto& link : fs::directory_iterator(dir, ec)) {
    const auto target = fs::read_symlink(link.path(), ec);
    if (ec) continue;
    const auto resolved = (target.is_absolute() ? target : (dir / target)).lexically_normal().string();
    for (auto& port : ports) {
      if (port.name == resolved) (port.*field).push_back(link.path().string());
    }
  }
}

std::vector<std::string> expand(const std::string& pattern) {
  glob_t matches{};
  std::vector<std::string> out;
  if (::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &matches) == 0) {
    for (std::size_t i = 0; i < matches.gl_pathc; ++i) out.emplace_back(matches.gl_pathv[i]);
  }
  ::globfree(&matches);
  return out;
}

void add_configured(std::vector<PortInfo>& ports, const std::vector<std::string>& extra) {
  for (const auto& pattern : extra) {
    for (const auto& path : expand(pattern)) {
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) continue;
      if (std::any_of(ports.begin(), ports.end(), [&](const auto& p) { return p.name == path; })) continue;
      PortInfo port;
      port.name = path;
      port.kind = "configured";
      std::error_code ec;
      port.target = fs::canonical(path, ec).string();
      port.description = "configured in [serial] ports" + (port.target != path ? " (" + port.target + ")" : "");
      ports.push_back(std::move(port));
    }
  }
}

}  // namespace

std::vector<PortInfo> enumerate_ports(const EnumerationRoots& roots, const std::vector<std::string>& extra) {
  std::vector<PortInfo> ports;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(roots.sysfs) / "class" / "tty", ec)) {
    if (auto port = sysfs_port(entry.path(), roots)) ports.push_back(std::move(*port));
  }
  add_links(ports, fs::path(roots.dev) / "serial" / "by-id", &PortInfo::by_id);
  add_links(ports, fs::path(roots.dev) / "serial" / "by-path", &PortInfo::by_path);
  add_configured(ports, extra);
  std::sort(ports.begin(), ports.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return ports;
}

}  // namespace mcpud::serial
