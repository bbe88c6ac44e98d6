// SPDX-License-Identifier: MIT
// DNS-SD announcement of mcpud's listeners on the LAN, through avahi-daemon's
// D-Bus API on the system bus (no mDNS code of mcpud's own). Announces what it
// is told, follows avahi-daemon leaving and coming back, and renames the
// service when another on the LAN has its name. Event loop only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace mcpud::dbus {

// One DNS-SD service: "_mcpu._tcp" or "_mcp._tcp" on a port, on one network
// interface (or all) and for IPv4, IPv6 or both.
struct AnnouncedService {
  enum class Family { any, ipv4, ipv6 };
  std::string type;
  std::uint16_t port = 0;
  int interface_index = -1;  // -1: every interface
  Family family = Family::any;
  std::vector<std::string> txt;  // "key=value"
  bool operator==(const AnnouncedService&) const = default;
};

class Announcer {
 public:
  explicit Announcer(boost::asio::io_context& io);
  ~Announcer();
  Announcer(const Announcer&) = delete;
  Announcer& operator=(const Announcer&) = delete;

  // Announces `services` under the instance name `name` in place of what was
  // announced before; none withdraws everything. Without avahi-daemon on the
  // system bus nothing is announced (said once) until it appears.
  void announce(const std::string& name, std::vector<AnnouncedService> services);
  // Withdraws everything and leaves the bus.
  void close();

 private:
  struct Avahi;
  std::unique_ptr<Avahi> avahi_;
};

}  // namespace mcpud::dbus
