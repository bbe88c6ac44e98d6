// SPDX-License-Identifier: MIT
// The serial tool set: serial_list_ports, serial_connect, serial_disconnect,
// serial_send, serial_read, serial_read_line, serial_read_until, serial_exec,
// serial_flush, serial_set_lines and serial_list_sessions.
#pragma once

#include "mcpud/core/tool_registry.hpp"
#include "mcpud/serial/serial_service.hpp"

namespace mcpud::serial {

inline constexpr const char* kSerialToolsOwner = "serial";

// Registers every serial tool under owner "serial". `service` must outlive
// them (remove them with registry.remove_owner("serial")).
void register_serial_tools(ToolRegistry& registry, SerialService& service);

// serial_list_ports, serial_connect, serial_disconnect, serial_list_sessions, serial_flush.
void register_session_tools(ToolRegistry& registry, SerialService& service);
// serial_send, serial_read, serial_read_line, serial_read_until.
void register_io_tools(ToolRegistry& registry, SerialService& service);
// serial_exec, serial_set_lines: several steps in one call.
void register_exec_tools(ToolRegistry& registry, SerialService& service);

}  // namespace mcpud::serial
