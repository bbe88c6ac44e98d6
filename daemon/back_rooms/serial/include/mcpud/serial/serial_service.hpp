// SPDX-License-Identifier: MIT
// The serial sessions of the daemon: opening ports (allow list, one session
// per port, caps on sessions and on their buffers), whose they are (a session
// is the client's that opened it unless [serial] share_sessions), looking them
// up, closing them (also when their client goes away), and marking them gone
// when udev says their device was removed.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/error.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/io/udev_monitor.hpp"
#include "mcpud/serial/port_enumeration.hpp"
#include "mcpud/serial/serial_config.hpp"
#include "mcpud/serial/serial_session.hpp"

namespace mcpud::serial {

// What serial_connect asks for, the [serial] defaults filled in (open_request).
struct OpenRequest {
  std::string port;
  io::PortSettings settings;
  Millis timeout{};
  std::string newline;
  std::size_t buffer_bytes{};
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

  // Opens a session for `owner` (a client's identity; null: the daemon itself,
  // whose sessions are everyone's), unless share_sessions makes it everyone's.
  // A stateless request's session is every stateless request's, and closes
  // after stateless_idle_ms unused (at the next open, which may need its room).
  // Errors: NOT_AUTHORIZED (not an allowed serial port: port_access.hpp),
  // PORT_ALREADY_IN_USE, OPEN_ERROR, INVALID_ARGUMENT (settings the port
  // refuses), BUSY (too many sessions, or buffers past buffer_bytes_total).
  Result<std::shared_ptr<SerialSession>> open(const OpenRequest& request, const std::shared_ptr<ClientIdentity>& owner);
  // UNKNOWN_SESSION when no session has this id that `who` may use (another
  // client's session reads as unknown); null `who` may use any.
  Result<std::shared_ptr<SerialSession>> find(std::string_view id, const std::shared_ptr<ClientIdentity>& who) const;
  // Closes and forgets the session; false when no session has this id.
  bool close(std::string_view id);
  // Closes every session and stops watching udev, so the event loop can end.
  void shutdown();

  std::vector<PortInfo> list_ports() const;
  // The sessions `who` may use, oldest first.
  std::vector<std::shared_ptr<SerialSession>> sessions(const std::shared_ptr<ClientIdentity>& who) const;
  // The open session that has `device` (canonical path) open, or null.
  std::shared_ptr<SerialSession> session_for_device(const std::string& device) const;
  // Bytes of ring buffer all sessions hold together (at most buffer_bytes_total).
  std::size_t buffer_bytes_in_use() const;

 private:
  Result<void> check_capacity(const OpenRequest& request) const;
  // Closes the session when `owner` goes away (the hook is one per owner).
  void close_with_owner(const std::shared_ptr<ClientIdentity>& owner);
  void close_orphans();
  void close_unused_stateless();
  void device_removed(const std::string& devnode);
  void forget_old_disconnected();

  boost::asio::io_context& io_;
  EventHub& events_;
  SerialConfig config_;
  std::map<std::string, std::shared_ptr<SerialSession>, std::less<>> sessions_;
  std::vector<std::string> order_;  // ids, oldest first
  std::unique_ptr<io::UdevMonitor> udev_;
  // What an owner's departure hook holds: expires with this service.
  std::shared_ptr<SerialService*> self_ = std::make_shared<SerialService*>(this);
};

// A fresh random id in UUID form (version 4).
std::string new_session_id();

}  // namespace mcpud::serial
