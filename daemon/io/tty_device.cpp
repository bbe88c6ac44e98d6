// SPDX-License-Identifier: MIT
// /proc/tty/drivers, and resolving a path to a serial port's device node.
#include "mcpud/io/tty_device.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <charconv>
#include <fstream>
#include <sstream>

namespace mcpud::io {
namespace {

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  while (!line.empty()) {
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) break;
    line.remove_prefix(start);
    const auto end = line.find_first_of(" \t");
    out.push_back(line.substr(0, end));
    line.remove_prefix(end == std::string_view::npos ? line.size() : end);
  }
  return out;
}

std::optional<unsigned> number(std::string_view text) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool is_serial_port_type(std::string_view type) { return type == "serial" || type == "pty:slave"; }

}  // namespace

TtyDrivers TtyDrivers::parse(std::string_view text) {
  TtyDrivers drivers;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    const auto line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    // Counted from the end: the driver's name is the only free-form field.
    const auto fields = words(line);
    if (fields.size() < 5 || !is_serial_port_type(fields.back())) continue;
    const auto minors = fields[fields.size() - 2];
    const auto dash = minors.find('-');
    const auto major = number(fields[fields.size() - 3]);
    const auto first = number(minors.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : number(minors.substr(dash + 1));
    if (major && first && last && *first <= *last) drivers.ranges_.push_back({*major, *first, *last});
  }
  return drivers;
}

std::optional<TtyDrivers> TtyDrivers::read(const std::filesystem::path& proc_root) {
  std::ifstream in(proc_root / "tty" / "drivers");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str());
}

bool TtyDrivers::drives(dev_t device) const {
  const auto major = ::major(device), minor = ::minor(device);
  for (const auto& range : ranges_) {
    if (range.major == major && minor >= range.first_minor && minor <= range.last_minor) return true;
  }
  return false;
}

std::expected<TtyDevice, PortCheck> resolve_serial_device(const std::string& path, const TtyDrivers& drivers) {
  if (!path.starts_with('/')) return std::unexpected(PortCheck::NotASerialPort);
  std::error_code ec;
  const auto canonical = std::filesystem::canonical(path, ec);
  if (ec) {
    const bool missing = ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
    return std::unexpected(missing ? PortCheck::Missing : PortCheck::NotASerialPort);
  }
  std::string resolved = canonical.string();
  if (!resolved.starts_with("/dev/")) return std::unexpected(PortCheck::NotASerialPort);
  struct stat st {};
  if (::stat(resolved.c_str(), &st) != 0 || !S_ISCHR(st.st_mode) || !drivers.drives(st.st_rdev)) {
    return std::unexpected(PortCheck::NotASerialPort);
  }
  return TtyDevice{std::move(resolved), st.st_rdev};
}

}  // namespace mcpud::io
