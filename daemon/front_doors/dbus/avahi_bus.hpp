// SPDX-License-Identifier: MIT
// What the announcer and the service watch share of avahi-daemon's D-Bus API
// (avahi-common/dbus.h gives the names). Event loop only.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <sdbus-c++/IConnection.h>
#include <sdbus-c++/IProxy.h>

namespace mcpud::dbus {

inline constexpr const char* kAvahi = "org.freedesktop.Avahi";
// avahi-daemon answers at once; a wedged one must not hold the event loop long.
inline constexpr auto kAvahiCallTime = std::chrono::seconds(2);

// A proxy of the bus itself that calls `changed(present)` each time
// org.freedesktop.Avahi gets or loses its owner (avahi-daemon starts or stops).
std::unique_ptr<sdbus::IProxy> watch_avahi_owner(sdbus::IConnection& connection,
                                                 std::function<void(bool present)> changed);

}  // namespace mcpud::dbus
