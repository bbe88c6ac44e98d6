// SPDX-License-Identifier: MIT
// The DNS-SD services of one type on the LAN, followed through avahi-daemon's
// D-Bus API on the system bus: each instance as it appears, is resolved to an
// address and port (again when those change) and goes. Without avahi-daemon
// it waits for it (said once). Event loop only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace mcpud::dbus {

struct FoundService {
  std::string name;     // the instance name, e.g. "uno-greenhouse"
  std::string address;  // as avahi-daemon resolved it: "192.168.1.40", "2001:db8::40"
  std::uint16_t port = 0;
  bool operator==(const FoundService&) const = default;
};

class ServiceWatch {
 public:
  // `changed` runs with every resolved instance (sorted by name, one per
  // name) whenever that set changes.
  using Changed = std::function<void(const std::vector<FoundService>&)>;
  ServiceWatch(boost::asio::io_context& io, std::string type, Changed changed);
  ~ServiceWatch();
  ServiceWatch(const ServiceWatch&) = delete;
  ServiceWatch& operator=(const ServiceWatch&) = delete;

  // Connects and browses; again after the bus or avahi-daemon came back.
  void start();
  void stop();

 private:
  struct Browse;
  std::unique_ptr<Browse> browse_;
};

}  // namespace mcpud::dbus
