// SPDX-License-Identifier: MIT
// The names of mcpud's D-Bus interface (io.mcpud.Daemon1.xml describes it) and
// the D-Bus types its methods use, shared by the service and mcpuctl.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <sdbus-c++/Types.h>

namespace mcpud::dbus {

inline constexpr const char* kBusName = "io.mcpud.Daemon1";
inline constexpr const char* kObjectPath = "/io/mcpud/Daemon1";
inline constexpr const char* kInterface = "io.mcpud.Daemon1";
inline constexpr std::string_view kErrorPrefix = "io.mcpud.Error.";
// Members of this group (and root) may call methods on the system bus, and call
// user-only tools.
inline constexpr const char* kAdminGroup = "mcpud";

enum class BusKind { System, Session };

using Dict = std::map<std::string, sdbus::Variant>;                          // a{sv}
using ToolRow = sdbus::Struct<std::string, std::string, std::string, Dict>;  // (sssa{sv})
using PinRow = sdbus::Struct<std::int32_t, std::string, std::string, Dict>;  // (issa{sv})
using BridgeRow = sdbus::Struct<std::string, std::uint32_t, Dict>;           // (sua{sv})
using ClientRow = sdbus::Struct<std::string, std::string>;                   // (ss)
using SessionRow = sdbus::Struct<std::string, std::string, Dict>;            // (ssa{sv})

// "PIN_NOT_FOUND" -> "io.mcpud.Error.PinNotFound".
std::string error_name_for(std::string_view stable_name);

}  // namespace mcpud::dbus
