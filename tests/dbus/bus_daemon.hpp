// SPDX-License-Identifier: MIT
// A private dbus-daemon for one test: session-type (anyone may do anything) or
// system-type (the stock system policy plus mcpud's policy file), listening on
// a socket in its own temporary directory.
#pragma once

#include <string>

#include "support/daemon_process.hpp"

namespace mcpud::it {

class BusDaemon {
 public:
  enum class Kind { Session, System };

  // Starts dbus-daemon and waits for its address; address() is empty (and the
  // test has failed) if it could not.
  explicit BusDaemon(Kind kind, const std::string& policy_file = {});

  const std::string& address() const { return address_; }
  // The directory the socket lives in; readable by every user.
  const std::filesystem::path& directory() const { return directory_; }
  // Points DBUS_SESSION_BUS_ADDRESS or DBUS_SYSTEM_BUS_ADDRESS (by kind) of this
  // process, and so of every child started after, at this bus.
  void export_address() const;
  // Stops dbus-daemon, as a crash of the bus would.
  void kill();

 private:
  Kind kind_;
  DaemonProcess process_;
  std::string address_;
  std::filesystem::path directory_;
};

}  // namespace mcpud::it
