// SPDX-License-Identifier: MIT
// Hot-plug: udev's "remove" events for ttys, read from libudev's monitor socket
// on the event loop, so a session learns at once that its device is gone.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

namespace mcpud::serial {

// Event loop only. Stops watching when destroyed.
class UdevMonitor {
 public:
  // Called with the device node ("/dev/ttyACM0") of each removed tty.
  using Removed = std::function<void(const std::string& devnode)>;

  // nullptr (and a debug log line) when udev cannot be watched here, e.g. in a
  // container without udev; read errors on the port still mark it gone then.
  static std::unique_ptr<UdevMonitor> create(boost::asio::io_context& io, Removed removed);
  ~UdevMonitor();

 private:
  UdevMonitor(boost::asio::io_context& io, void* udev, void* monitor, Removed removed);
  void wait();
  void receive();

  void* udev_;     // struct udev*, owned
  void* monitor_;  // struct udev_monitor*, owned
  boost::asio::posix::stream_descriptor stream_;
  Removed removed_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace mcpud::serial
