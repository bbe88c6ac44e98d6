// SPDX-License-Identifier: MIT
// Hot-plug of serial devices: udev's tty events, read from libudev's monitor
// socket on the event loop. The serial tool set learns at once that a device is
// gone; MCU bridges retry at once when one appears.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

namespace mcpud::io {

// Event loop only. Stops watching when destroyed.
class UdevMonitor {
 public:
  // Called for every tty event with udev's action ("add", "remove", ...) and the
  // device node ("/dev/ttyACM0").
  using Changed = std::function<void(std::string_view action, const std::string& devnode)>;

  // nullptr when udev cannot be watched here (e.g. a container without udev);
  // callers then rely on read errors and retries.
  static std::unique_ptr<UdevMonitor> create(boost::asio::io_context& io, Changed changed);
  ~UdevMonitor();
  UdevMonitor(const UdevMonitor&) = delete;
  UdevMonitor& operator=(const UdevMonitor&) = delete;

 private:
  UdevMonitor(boost::asio::io_context& io, void* udev, void* monitor, Changed changed);
  void wait();
  void receive();

  void* udev_;     // struct udev*, owned
  void* monitor_;  // struct udev_monitor*, owned
  boost::asio::posix::stream_descriptor stream_;
  Changed changed_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace mcpud::io
