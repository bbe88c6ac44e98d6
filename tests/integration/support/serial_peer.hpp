// SPDX-License-Identifier: MIT
// The device on the far side of a serial port, for the serial tool tests: the
// master of a pseudo-terminal whose slave mcpud opens by a link in the test's
// temporary directory. Closing the master is unplugging the device.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "support/deadline.hpp"

namespace mcpud::it {

class SerialPeer {
 public:
  // Opens a pty and points `link` at its slave. Fails the test if it cannot.
  explicit SerialPeer(const std::filesystem::path& link);
  ~SerialPeer();
  SerialPeer(const SerialPeer&) = delete;
  SerialPeer& operator=(const SerialPeer&) = delete;

  bool ok() const { return master_ >= 0; }
  const std::string& link() const { return link_; }
  const std::string& slave() const { return slave_; }

  // Writes every byte (the device talking); false on error or at the deadline.
  bool write(std::string_view bytes, Deadline deadline = 10s);
  // Reads until `count` bytes came (what mcpud sent); returns what came by the deadline.
  std::string read(std::size_t count, Deadline deadline = 5s);
  // Unplugs the device: mcpud's next read of the slave fails.
  void unplug();

 private:
  int master_ = -1;
  std::string link_;
  std::string slave_;
};

}  // namespace mcpud::it
