// SPDX-License-Identifier: MIT
#include "avahi_bus.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include "mcpud/dbus/sdbus_compat.hpp"

namespace mcpud::dbus {

std::unique_ptr<sdbus::IProxy> watch_avahi_owner(sdbus::IConnection& connection,
                                                 std::function<void(bool present)> changed) {
  auto bus = compat::make_proxy(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus");
  bus->uponSignal("NameOwnerChanged")
      .onInterface("org.freedesktop.DBus")
      .call([changed = std::move(changed)](const std::string& owned, const std::string&, const std::string& owner) {
        if (owned == kAvahi) changed(!owner.empty());
      });
  compat::finish_proxy(*bus);
  return bus;
}

}  // namespace mcpud::dbus
