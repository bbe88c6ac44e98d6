// SPDX-License-Identifier: MIT
#include "bus_pump.hpp"

#include <poll.h>

#include <boost/asio/post.hpp>

#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus {

namespace asio = boost::asio;

BusPump::BusPump(asio::io_context& io, std::function<void(const std::string&)> failed)
    : io_(io), failed_(std::move(failed)), bus_fd_(io), event_fd_(io), timer_(io) {}

BusPump::~BusPump() { release_descriptors(); }

void BusPump::start(sdbus::IConnection& connection) {
  connection_ = &connection;
  const auto data = compat::poll_data(connection);
  bus_fd_.assign(data.fd);
  if (data.event_fd >= 0) event_fd_.assign(data.event_fd);
  dispatch();
}

void BusPump::kick() {
  if (kick_pending_ || !connection_) return;
  kick_pending_ = true;
  asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    kick_pending_ = false;
    if (connection_) dispatch();
  });
}

void BusPump::stop() {
  if (!connection_) return;
  release_descriptors();
  try {
    compat::process_one(*connection_);  // flush what is queued
  } catch (const sdbus::Error&) {
  }
  connection_ = nullptr;
}

void BusPump::release_descriptors() {
  ++generation_;
  timer_.cancel();
  for (auto* fd : {&bus_fd_, &event_fd_}) {
    if (!fd->is_open()) continue;
    fd->cancel();
    fd->release();
  }
}

void BusPump::dispatch() {
  try {
    while (connection_ && compat::process_one(*connection_)) {
    }
  } catch (const sdbus::Error& e) {
    release_descriptors();
    connection_ = nullptr;
    failed_(e.what());
    return;
  }
  if (connection_) arm();  // a handler may have stopped the pump
}

void BusPump::arm() {
  const auto data = compat::poll_data(*connection_);
  const auto current = ++generation_;
  bus_fd_.cancel();  // waits of the previous round would pile up otherwise
  if (event_fd_.is_open()) event_fd_.cancel();
  auto ready = [this, current](const boost::system::error_code& ec) {
    if (ec || current != generation_) return;
    dispatch();
  };
  if (data.events & POLLIN) bus_fd_.async_wait(asio::posix::descriptor_base::wait_read, ready);
  if (data.events & POLLOUT) bus_fd_.async_wait(asio::posix::descriptor_base::wait_write, ready);
  if (event_fd_.is_open()) event_fd_.async_wait(asio::posix::descriptor_base::wait_read, ready);
  if (data.timeout) {
    timer_.expires_after(*data.timeout);
    timer_.async_wait(ready);
  } else {
    timer_.cancel();
  }
}

}  // namespace mcpud::dbus
