// SPDX-License-Identifier: MIT
// An sd-bus connection driven from the daemon's io_context (no thread of its
// own): wait for what sd-bus asks for (a readable or writable fd, a timeout),
// process until nothing is pending, wait again. Event loop only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

namespace sdbus {
class IConnection;
}

namespace mcpud::dbus {

class BusPump {
 public:
  // `failed` runs once when processing throws (the bus went away); the pump
  // has stopped by then and the connection must not be processed again.
  BusPump(boost::asio::io_context& io, std::function<void(const std::string& why)> failed);
  ~BusPump();
  BusPump(const BusPump&) = delete;
  BusPump& operator=(const BusPump&) = delete;

  // Processes `connection` (borrowed until stop()) from now on.
  void start(sdbus::IConnection& connection);
  // Something was queued outside the pump's own processing (a signal emitted,
  // an asynchronous reply): process soon, so it is sent.
  void kick();
  // Stops waiting and sends what is queued; safe to call twice.
  void stop();
  bool running() const { return connection_ != nullptr; }

 private:
  void dispatch();
  void arm();
  void release_descriptors();

  boost::asio::io_context& io_;
  std::function<void(const std::string&)> failed_;
  sdbus::IConnection* connection_ = nullptr;
  boost::asio::posix::stream_descriptor bus_fd_;    // borrowed from sd-bus: released, never closed here
  boost::asio::posix::stream_descriptor event_fd_;  // sdbus-c++ 2.x only
  boost::asio::steady_timer timer_;
  std::uint64_t generation_ = 0;  // completions of older waits are ignored
  bool kick_pending_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace mcpud::dbus
