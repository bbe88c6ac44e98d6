// SPDX-License-Identifier: MIT
// The serial sessions of the daemon: opening ports (allow list, one session
// per port, a cap on sessions), looking sessions up, closing them, and marking
// them gone when udev says their device was removed.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/io/udev_monitor.hpp"
#include "mcpud/serial/port_enumeration.hpp"
#include "mcpud/serial/serial_config.hpp"
#include "mcpud/serial/serial_session.hpp"

namespace mcpud::serial {

struct OpenRequest {
  std::string port;
  io::PortSettings settings;
  Millis timeout{100};
  std::string newline = "\n";
  std::size_t buffer_bytes = 1 << 20;
};

// Event loop only.
class SerialService {
 public:
  SerialService(boost::asio::io_context& io, EventHub& events, SerialConfig config);
  ~SerialService();
  SerialService(const SerialService&) = delete;
  SerialService& operator=(const SerialService&) = delete;

  // New settings apply to sessions opened from now on; open sessions stay up.
  void reconfigure(SerialConfig config);
  const SerialConfig& config() const { return config_; }

  // Errors: NOT_AUTHORIZED (outside the allow list), PORT_ALREADY_IN_USE,
  // OPEN_ERROR, INVALID_ARGUMENT (settings the port refuses), BUSY (too many sessions).
  Result<std::shared_ptr<SerialSession>> open(const OpenRequest& request);
  // UNKNOWN_SESSION when no session has this id.
  Result<std::shared_ptr<SerialSession>> find(std::string_view id) const;
  // Closes and forgets the session; false when no session has this id.
  bool close(std::string_view id);
  // Closes every session and stops watching udev, so the event loop can end.
  void shutdown();

  std::vector<PortInfo> list_ports() const;
  // Oldest first.
  std::vector<std::shared_ptr<SerialSession>> sessions() const;
  // The id of the session that has `device` (canonical path) open, or empty.
  std::string session_for_device(const std::string& device) const;

 private:
  Result<void> check_allowed(const std::string& port, const std::string& device) const;
  void device_removed(const std::string& devnode);
  void forget_old_disconnected();

  boost::asio::io_context& io_;
  EventHub& events_;
  SerialConfig config_;
  std::map<std::string, std::shared_ptr<SerialSession>, std::less<>> sessions_;
  std::vector<std::string> order_;  // ids, oldest first
  std::unique_ptr<io::UdevMonitor> udev_;
};

// A fresh random id in UUID form (version 4).
std::string new_session_id();

}  // namespace mcpud::serial
