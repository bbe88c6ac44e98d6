// SPDX-License-Identifier: MIT
// libudev monitor fd watched by Asio (readiness only; libudev reads it).
#include "mcpud/io/udev_monitor.hpp"

#include <libudev.h>
#include <unistd.h>

#include "mcpud/core/log.hpp"

namespace mcpud::io {
namespace {

udev* as_udev(void* p) { return static_cast<udev*>(p); }
udev_monitor* as_monitor(void* p) { return static_cast<udev_monitor*>(p); }

}  // namespace

std::unique_ptr<UdevMonitor> UdevMonitor::create(boost::asio::io_context& io, Changed changed) {
  udev* u = udev_new();
  if (!u) {
    log::debug("udev", "unavailable; serial hot-plug is noticed by read errors and retries only");
    return nullptr;
  }
  udev_monitor* monitor = udev_monitor_new_from_netlink(u, "udev");
  if (!monitor || udev_monitor_filter_add_match_subsystem_devtype(monitor, "tty", nullptr) < 0 ||
      udev_monitor_enable_receiving(monitor) < 0) {
    log::debug("udev", "cannot watch events; serial hot-plug is noticed by read errors and retries only");
    if (monitor) udev_monitor_unref(monitor);
    udev_unref(u);
    return nullptr;
  }
  return std::unique_ptr<UdevMonitor>(new UdevMonitor(io, u, monitor, std::move(changed)));
}

UdevMonitor::UdevMonitor(boost::asio::io_context& io, void* u, void* monitor, Changed changed)
    // The descriptor is libudev's: watch a duplicate so closing ours leaves theirs alone.
    : udev_(u),
      monitor_(monitor),
      stream_(io, ::dup(udev_monitor_get_fd(as_monitor(monitor)))),
      changed_(std::move(changed)) {
  wait();
}

UdevMonitor::~UdevMonitor() {
  *alive_ = false;
  boost::system::error_code ignored;
  stream_.close(ignored);
  udev_monitor_unref(as_monitor(monitor_));
  udev_unref(as_udev(udev_));
}

void UdevMonitor::wait() {
  stream_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                     [this, alive = alive_](boost::system::error_code ec) {
                       if (ec || !*alive) return;
                       receive();
                       wait();
                     });
}

void UdevMonitor::receive() {
  // The socket is non-blocking: drain every queued event.
  while (udev_device* device = udev_monitor_receive_device(as_monitor(monitor_))) {
    const char* action = udev_device_get_action(device);
    const char* node = udev_device_get_devnode(device);
    if (action && node) {
      log::debug("udev", node, " ", action);
      changed_(action, node);
    }
    udev_device_unref(device);
  }
}

}  // namespace mcpud::io
