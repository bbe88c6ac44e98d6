// SPDX-License-Identifier: MIT
// Watches udev for tty devices being added (a board plugged in), on the event
// loop, so serial bridges retry at once instead of at their next backoff tick.
// Single-threaded (event loop only).
#pragma once

#include <expected>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

struct udev;
struct udev_monitor;

namespace mcpud::bridge {

class UdevMonitor {
 public:
  // Fails where udev is not available (containers without udevd, no netlink).
  static std::expected<std::unique_ptr<UdevMonitor>, std::string> open(boost::asio::io_context& io,
                                                                       std::function<void()> on_tty_added);
  ~UdevMonitor();
  UdevMonitor(const UdevMonitor&) = delete;
  UdevMonitor& operator=(const UdevMonitor&) = delete;

 private:
  UdevMonitor(boost::asio::io_context& io, udev* context, udev_monitor* monitor, std::function<void()> on_tty_added);
  void wait();
  void receive();

  udev* udev_;
  udev_monitor* monitor_;
  boost::asio::posix::stream_descriptor fd_;  // borrowed from monitor_: released, not closed
  std::function<void()> on_tty_added_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace mcpud::bridge
