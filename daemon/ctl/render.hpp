// SPDX-License-Identifier: MIT
// mcpuctl's output: aligned tables for people, JSON for scripts. Each function
// turns one D-Bus answer into JSON first; tables are drawn from that JSON, so
// both modes always show the same facts.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/dbus/names.hpp"

namespace mcpud::ctl {

nlohmann::json status_json(const dbus::Dict& info, const std::vector<dbus::BridgeRow>& bridges);
nlohmann::json tools_json(const std::vector<dbus::ToolRow>& tools);
nlohmann::json pins_json(const std::vector<dbus::PinRow>& pins);
nlohmann::json bridges_json(const std::vector<dbus::BridgeRow>& bridges);
nlohmann::json clients_json(const std::vector<dbus::ClientRow>& clients);
nlohmann::json sessions_json(const std::vector<dbus::SessionRow>& sessions);

void print_status(std::ostream& out, const nlohmann::json& status);
void print_tools(std::ostream& out, const nlohmann::json& tools);
void print_pins(std::ostream& out, const nlohmann::json& pins);
void print_bridges(std::ostream& out, const nlohmann::json& bridges);
void print_clients(std::ostream& out, const nlohmann::json& clients);
void print_sessions(std::ostream& out, const nlohmann::json& sessions);
// Safety: the e-stop and the calls waiting for approval (GetSafety's JSON).
void print_safety(std::ostream& out, const nlohmann::json& state);
// One audit record per line, or a gap ({"lost": N}) as a line of its own.
void print_audit(std::ostream& out, const nlohmann::json& entry);
// One line per signal: "12:00:01.250 PinEvent button (4) rising value=1".
void print_event(std::ostream& out, const nlohmann::json& event);

// "pin:integer value:boolean [frequency_hz:integer]" (optional ones in brackets).
std::string parameters_summary(const nlohmann::json& input_schema);
// A table: header row, rows, columns separated by two spaces; the last column
// is not padded. Control and formatting characters in cells are shown escaped.
void print_table(std::ostream& out, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows);

}  // namespace mcpud::ctl
