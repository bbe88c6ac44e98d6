// SPDX-License-Identifier: MIT
// A libudev monitor for tty "add" events on the Asio loop.
#include "bridge/udev_monitor.hpp"

#include <libudev.h>

#include <cstring>

namespace mcpud::bridge {

std::expected<std::unique_ptr<UdevMonitor>, std::string> UdevMonitor::open(boost::asio::io_context& io,
                                                                           std::function<void()> on_tty_added) {
  udev* context = udev_new();
  if (!context) return std::unexpected("udev_new failed");
  udev_monitor* monitor = udev_monitor_new_from_netlink(context, "udev");
  if (!monitor || udev_monitor_filter_add_match_subsystem_devtype(monitor, "tty", nullptr) < 0 ||
      udev_monitor_enable_receiving(monitor) < 0) {
    if (monitor) udev_monitor_unref(monitor);
    udev_unref(context);
    return std::unexpected("cannot listen to udev events");
  }
  return std::unique_ptr<UdevMonitor>(new UdevMonitor(io, context, monitor, std::move(on_tty_added)));
}

UdevMonitor::UdevMonitor(boost::asio::io_context& io, udev* context, udev_monitor* monitor,
                         std::function<void()> on_tty_added)
    : udev_(context), monitor_(monitor), fd_(io, udev_monitor_get_fd(monitor)), on_tty_added_(std::move(on_tty_added)) {
  wait();
}

UdevMonitor::~UdevMonitor() {
  *alive_ = false;
  boost::system::error_code ignored;
  fd_.cancel(ignored);
  fd_.release();
  udev_monitor_unref(monitor_);
  udev_unref(udev_);
}

void UdevMonitor::wait() {
  fd_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                 [this, alive = alive_](boost::system::error_code ec) {
                   if (ec || !*alive) return;
                   receive();
                   wait();
                 });
}

void UdevMonitor::receive() {
  bool added = false;
  while (udev_device* device = udev_monitor_receive_device(monitor_)) {
    const char* action = udev_device_get_action(device);
    if (action && std::strcmp(action, "add") == 0) added = true;
    udev_device_unref(device);
  }
  if (added) on_tty_added_();
}

}  // namespace mcpud::bridge
