// SPDX-License-Identifier: MIT
// Serves MCP/U on a serial port (the USB serial gadget /dev/ttyGS0, a UART, a
// pty): one client, the port itself. When the device vanishes (cable pulled) the
// listener waits for the path to come back and reopens it.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/json_rpc.hpp"
#include "mcpud/transports/session.hpp"

namespace mcpud::transports {

class TtyListener {
 public:
  TtyListener(boost::asio::io_context& io, std::string path, std::uint32_t baud, rpc::Engine& engine,
              SessionSet& sessions, const SessionLimits& limits);
  ~TtyListener();

  // Opens the port now if it exists, else keeps trying once a second.
  void start();
  // Closes the port and stops retrying.
  void close();

  std::string spec() const { return path_ + ":" + std::to_string(baud_); }

 private:
  void try_open();
  void retry_later();

  boost::asio::io_context& io_;
  std::string path_;
  std::uint32_t baud_;
  rpc::Engine& engine_;
  SessionSet& sessions_;
  const SessionLimits& limits_;
  boost::asio::steady_timer retry_timer_;
  std::weak_ptr<Session> session_;
  // Shared with the session's close handler, which may run after this listener is gone.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::string last_error_;  // logged once, not on every retry
  bool closed_ = false;
};

}  // namespace mcpud::transports
