// SPDX-License-Identifier: MIT
// The allow list and the checks before a port is opened, with their messages.
#include "port_access.hpp"

#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>

namespace mcpud::serial {
namespace {

bool allows_any(const SerialConfig& config) { return !config.allowed_ports && config.any_port_when_unset; }

bool allows_none(const SerialConfig& config) {
  return !allows_any(config) && (!config.allowed_ports || config.allowed_ports->empty());
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

Error none_allowed(const std::string& path) {
  return Error::domain(DomainError::NotAuthorized,
                       path +
                           ": no serial port may be opened: [serial] allowed_ports lists none (list the ports "
                           "clients may open, e.g. allowed_ports = [\"/dev/ttyUSB*\"], or set "
                           "SERIAL_MCP_ALLOWED_PORTS)");
}

// The one answer for a path that may not be opened, whatever the reason.
Error not_allowed(const SerialConfig& config, const std::string& path) {
  if (allows_any(config)) {
    return Error::domain(DomainError::NotAuthorized,
                         path + " is not a serial port (a serial or pty device under /dev)");
  }
  return Error::domain(DomainError::NotAuthorized,
                       path + " is not an allowed serial port (allowed: " + join(*config.allowed_ports) +
                           ", by [serial] allowed_ports or SERIAL_MCP_ALLOWED_PORTS; and it must be a serial or "
                           "pty device under /dev)");
}

// Why a link that leads to `device` cannot stand for it, or nothing when it
// can. A link is trusted only where no other user could have made or swapped
// it: its directory is not writable by others, and a link to a pseudo-terminal
// (someone's shell, not a serial port) was made by this daemon's user or root.
std::optional<std::string> untrusted_link(const std::string& path, const io::TtyDevice& device) {
  namespace fs = std::filesystem;
  const bool to_pty = device.path.starts_with("/dev/pts/");
  fs::path at = path;
  for (int hop = 0; hop < 40; ++hop) {  // the kernel's own bound on a chain of links
    struct stat link {};
    if (::lstat(at.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return std::nullopt;
    struct stat dir {};
    if (::stat(at.parent_path().c_str(), &dir) != 0 || (dir.st_mode & S_IWOTH) != 0) {
      return at.string() + " is a link in a directory other users may write to (" + at.parent_path().string() +
             "), so anyone could point it elsewhere: make the link in a directory only its owner writes";
    }
    if (to_pty && link.st_uid != ::geteuid() && link.st_uid != 0) {
      return at.string() + " leads to the terminal " + device.path + " and was made by another user (uid " +
             std::to_string(link.st_uid) + "): a pty is opened through a link of mcpud's own user, or by " +
             "allowing /dev/pts/* in [serial] allowed_ports";
    }
    std::error_code ec;
    const auto target = fs::read_symlink(at, ec);
    if (ec) return std::nullopt;
    at = target.is_absolute() ? target : at.parent_path() / target;
  }
  return std::nullopt;
}

}  // namespace

std::string port_path(const std::string& port) { return port.starts_with('/') ? port : "/dev/" + port; }

bool port_allowed(const SerialConfig& config, const std::string& path) {
  if (allows_any(config)) return true;
  if (!config.allowed_ports) return false;
  // FNM_PERIOD: a wildcard matches neither ".." nor a hidden name.
  return std::any_of(config.allowed_ports->begin(), config.allowed_ports->end(), [&](const auto& glob) {
    return ::fnmatch(glob.c_str(), path.c_str(), FNM_PATHNAME | FNM_PERIOD) == 0;
  });
}

Result<io::TtyDevice> check_port(const SerialConfig& config, const std::string& path) {
  if (allows_none(config)) return std::unexpected(none_allowed(path));
  // Read for every open: a USB serial driver loaded since the last one (the
  // first adapter plugged in) is then known.
  const auto drivers = io::TtyDrivers::read();
  if (!drivers) {
    return std::unexpected(Error::domain(
        DomainError::OpenError, "cannot read /proc/tty/drivers, so no port can be checked and none is opened"));
  }
  const bool named_allowed = port_allowed(config, path);
  auto device = io::resolve_serial_device(path, *drivers);
  if (!device) {
    // Only about a path the operator allowed: telling that it is missing tells nothing new.
    if (named_allowed && device.error() == io::PortCheck::Missing) {
      return std::unexpected(
          Error::domain(DomainError::OpenError, path + ": no such device (is it plugged in? see serial_list_ports)"));
    }
    return std::unexpected(not_allowed(config, path));
  }
  if (port_allowed(config, device->path)) return *device;
  if (!named_allowed) return std::unexpected(not_allowed(config, path));
  // Allowed only by the name of a link: the link must be one the operator's side made.
  if (const auto why = untrusted_link(path, *device)) {
    return std::unexpected(Error::domain(DomainError::NotAuthorized, *why));
  }
  return *device;
}

}  // namespace mcpud::serial
