// SPDX-License-Identifier: MIT
// Opening a tty in raw mode, serving it, and reopening it after it vanishes.
#include "mcpud/transports/tty_listener.hpp"

#include <termios.h>

#include <utility>

#include <boost/asio/posix/stream_descriptor.hpp>

#include "line_session.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/io/port_open.hpp"

namespace mcpud::transports {
namespace {

constexpr auto kRetryInterval = std::chrono::seconds(1);

// Raw 8N1, no flow control, exclusive: the port carries only frames.
Result<io::UniqueFd> open_port(const std::string& path, std::uint32_t baud) {
  auto port = io::open_serial_port(path, {.baud = baud});
  if (!port) return std::unexpected(port.error());
  ::tcflush(port->fd.get(), TCIOFLUSH);  // drop whatever arrived before we served the port
  return std::move(port->fd);
}

}  // namespace

TtyListener::TtyListener(boost::asio::io_context& io, std::string path, std::uint32_t baud, rpc::Engine& engine,
                         SessionSet& sessions, const SessionLimits& limits)
    : io_(io),
      path_(std::move(path)),
      baud_(baud),
      engine_(engine),
      sessions_(sessions),
      limits_(limits),
      retry_timer_(io) {}

TtyListener::~TtyListener() {
  *alive_ = false;
  close();
}

void TtyListener::start() { try_open(); }

void TtyListener::close() {
  closed_ = true;
  retry_timer_.cancel();
  if (auto session = session_.lock()) session->close();
}

void TtyListener::try_open() {
  if (closed_) return;
  auto fd = open_port(path_, baud_);
  if (!fd) {
    if (fd.error().message != last_error_) log::warn("tty", fd.error().message, "; retrying every second");
    last_error_ = fd.error().message;
    retry_later();
    return;
  }
  last_error_.clear();
  boost::asio::posix::stream_descriptor stream(io_, fd->release());
  auto session = std::make_shared<LineSession<boost::asio::posix::stream_descriptor>>(
      std::move(stream), engine_, limits_, path_, "tty", [this, alive = alive_, &sessions = sessions_](Session& s) {
        sessions.remove(&s);
        if (!*alive || closed_) return;
        log::warn("tty", path_, ": closed (device gone?); waiting for it to come back");
        retry_later();
      });
  session_ = session;
  sessions_.add(session);
  log::info("tty", "serving MCP/U on ", path_, " at ", baud_, " baud");
  session->start();
}

void TtyListener::retry_later() {
  retry_timer_.expires_after(kRetryInterval);
  retry_timer_.async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (!ec && *alive) try_open();
  });
}

}  // namespace mcpud::transports
