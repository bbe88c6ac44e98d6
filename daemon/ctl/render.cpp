// SPDX-License-Identifier: MIT
// Tables and JSON for mcpuctl's commands.
#include "render.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "mcpud/core/shown_text.hpp"
#include "mcpud/dbus/variant_json.hpp"

namespace mcpud::ctl {

using nlohmann::json;

namespace {

std::string text_of(const json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) {
    const double d = value.get<double>();
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", d);
    return buffer;
  }
  return value.dump();
}

// A sensor's value as people read it: the wire's degC as °C and Pa as hPa,
// other units after the number as they are.
std::string for_people(const json& value, const std::string& unit) {
  if (!value.is_number() || unit.empty()) return text_of(value);
  if (unit == "degC") return text_of(value) + " °C";
  if (unit == "Pa") {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g hPa", value.get<double>() / 100);
    return buffer;
  }
  return text_of(value) + " " + unit;
}

std::string local_time(std::int64_t epoch_ms) {
  const std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(epoch_ms % 1000));
  return buffer;
}

std::string duration(std::uint64_t seconds) {
  char buffer[48];
  if (seconds >= 86400) {
    std::snprintf(buffer, sizeof buffer, "%lud %luh %lum", static_cast<unsigned long>(seconds / 86400),
                  static_cast<unsigned long>(seconds % 86400 / 3600), static_cast<unsigned long>(seconds % 3600 / 60));
  } else {
    std::snprintf(buffer, sizeof buffer, "%luh %lum %lus", static_cast<unsigned long>(seconds / 3600),
                  static_cast<unsigned long>(seconds % 3600 / 60), static_cast<unsigned long>(seconds % 60));
  }
  return buffer;
}

void print_or_none(std::ostream& out, const json& rows, const char* what, const std::vector<std::string>& header,
                   const std::vector<std::vector<std::string>>& cells) {
  if (rows.empty()) {
    out << "no " << what << "\n";
    return;
  }
  print_table(out, header, cells);
}

}  // namespace

json status_json(const dbus::Dict& info, const std::vector<dbus::BridgeRow>& bridges) {
  json status = dbus::json_from_dict(info);
  status["bridges"] = bridges_json(bridges);
  return status;
}

json tools_json(const std::vector<dbus::ToolRow>& tools) {
  json out = json::array();
  for (const auto& tool : tools) {
    json schema = json::parse(tool.get<2>(), nullptr, false);
    out.push_back({{"name", tool.get<0>()},
                   {"description", tool.get<1>()},
                   {"inputSchema", schema.is_discarded() ? json::object() : schema},
                   {"annotations", dbus::json_from_dict(tool.get<3>())}});
  }
  return out;
}

json pins_json(const std::vector<dbus::PinRow>& pins) {
  json out = json::array();
  for (const auto& pin : pins) {
    json entry = dbus::json_from_dict(pin.get<3>());
    entry["pin"] = pin.get<0>();
    entry["name"] = pin.get<1>();
    entry["type"] = pin.get<2>();
    out.push_back(std::move(entry));
  }
  return out;
}

json bridges_json(const std::vector<dbus::BridgeRow>& bridges) {
  json out = json::array();
  for (const auto& bridge : bridges) {
    out.push_back(
        {{"id", bridge.get<0>()}, {"tool_count", bridge.get<1>()}, {"details", dbus::json_from_dict(bridge.get<2>())}});
  }
  return out;
}

json clients_json(const std::vector<dbus::ClientRow>& clients) {
  json out = json::array();
  for (const auto& client : clients) out.push_back({{"transport", client.get<0>()}, {"peer", client.get<1>()}});
  return out;
}

json sessions_json(const std::vector<dbus::SessionRow>& sessions) {
  json out = json::array();
  for (const auto& s : sessions) {
    out.push_back({{"session_id", s.get<0>()}, {"port", s.get<1>()}, {"details", dbus::json_from_dict(s.get<2>())}});
  }
  return out;
}

void print_status(std::ostream& out, const json& status) {
  std::vector<std::vector<std::string>> rows{{"device:", text_of(status.value("device", json()))},
                                             {"version:", text_of(status.value("version", json()))},
                                             {"board:", text_of(status.value("board", json()))},
                                             {"uptime:", duration(status.value("uptime_s", std::uint64_t{0}))},
                                             {"bus:", text_of(status.value("bus", json()))},
                                             {"pins:", text_of(status.value("pin_count", json()))},
                                             {"tools:", text_of(status.value("tool_count", json()))},
                                             {"clients:", text_of(status.value("client_count", json()))}};
  const json listeners = status.value("listeners", json::array());
  if (listeners.empty()) rows.push_back({"listeners:", "none"});
  for (std::size_t i = 0; i < listeners.size(); ++i)
    rows.push_back({i == 0 ? "listeners:" : "", text_of(listeners[i])});
  const json bridges = status.value("bridges", json::array());
  if (bridges.empty()) rows.push_back({"bridges:", "none"});
  for (std::size_t i = 0; i < bridges.size(); ++i) {
    rows.push_back({i == 0 ? "bridges:" : "", bridges[i]["id"].get<std::string>() + " (" +
                                                  std::to_string(bridges[i]["tool_count"].get<std::uint32_t>()) +
                                                  " tools)"});
  }
  for (const auto& row : rows) {
    out << row[0] << std::string(row[0].size() < 11 ? 11 - row[0].size() : 1, ' ') << row[1] << "\n";
  }
}

std::string parameters_summary(const json& input_schema) {
  std::string summary;
  if (!input_schema.contains("properties") || !input_schema["properties"].is_object()) return summary;
  const json required = input_schema.value("required", json::array());
  for (const auto& [name, property] : input_schema["properties"].items()) {
    const json type = property.value("type", json("any"));
    std::string part = name + ":" + (type.is_string() ? type.get<std::string>() : type.dump());
    const bool needed = std::find(required.begin(), required.end(), json(name)) != required.end();
    if (!summary.empty()) summary += " ";
    summary += needed ? part : "[" + part + "]";
  }
  return summary;
}

void print_tools(std::ostream& out, const json& tools) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& tool : tools) {
    rows.push_back({tool["name"].get<std::string>(), tool["description"].get<std::string>(),
                    parameters_summary(tool["inputSchema"])});
  }
  print_or_none(out, tools, "tools", {"NAME", "DESCRIPTION", "PARAMETERS"}, rows);
}

void print_pins(std::ostream& out, const json& pins) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& pin : pins) {
    const std::string unit = pin.value("unit", "");
    std::string sample = "-";
    if (pin.contains("sample")) {
      sample = for_people(pin["sample"], unit) + " at " + local_time(pin.value("sample_timestamp_ms", std::int64_t{0}));
    }
    const std::string value =
        pin.contains("value") ? for_people(pin["value"], unit) : "error: " + text_of(pin.value("error", json()));
    rows.push_back({pin["name"].get<std::string>(), std::to_string(pin["pin"].get<int>()),
                    pin["type"].get<std::string>(), value, sample});
  }
  print_or_none(out, pins, "pins", {"NAME", "PIN", "TYPE", "VALUE", "LAST SAMPLE"}, rows);
}

namespace {

std::string bridge_state(const json& details) {
  if (!details.contains("online")) return "-";
  if (details["online"] == true) return "online";
  return details.contains("tools_kept_until_ms") ? "away" : "offline";
}

}  // namespace

void print_bridges(std::ostream& out, const json& bridges) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& b : bridges) {
    const json details = b.value("details", json::object());
    rows.push_back({b["id"].get<std::string>(), std::to_string(b["tool_count"].get<std::uint32_t>()),
                    bridge_state(details), text_of(details.value("refused_count", json())),
                    text_of(details.value("link", json())), text_of(details.value("last_error", json()))});
  }
  print_or_none(out, bridges, "bridges", {"ID", "TOOLS", "STATE", "REFUSED", "LINK", "LAST ERROR"}, rows);
  // What each device listed that mcpud would not export, one line each (names escaped by the daemon).
  for (const auto& b : bridges) {
    const json refused = b.value("details", json::object()).value("refused", json::array());
    if (!refused.is_array()) continue;
    for (const auto& line : refused)
      out << b["id"].get<std::string>() << " refused " << escaped_text(text_of(line)) << "\n";
  }
}

void print_clients(std::ostream& out, const json& clients) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : clients) rows.push_back({c["transport"].get<std::string>(), c["peer"].get<std::string>()});
  print_or_none(out, clients, "clients", {"TRANSPORT", "PEER"}, rows);
}

void print_sessions(std::ostream& out, const json& sessions) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& s : sessions)
    rows.push_back({s["session_id"].get<std::string>(), s["port"].get<std::string>(), s["details"].dump()});
  print_or_none(out, sessions, "serial sessions", {"SESSION", "PORT", "DETAILS"}, rows);
}

void print_safety(std::ostream& out, const json& state) {
  const json& estop = state.value("estop", json::object());
  if (estop.value("active", false)) {
    out << "emergency stop: ACTIVE since " << local_time(estop.value("since_ms", std::int64_t{0})) << " (by "
        << estop.value("by", "") << ": " << estop.value("reason", "") << "); reset: mcpuctl estop --reset\n";
  } else {
    out << "emergency stop: clear\n";
  }
  const json& pending = state.value("pending", json::array());
  if (pending.empty()) {
    out << "approvals:      none waiting\n";
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& call : pending) {
    rows.push_back({text_of(call.value("id", json())), call.value("tool", ""), call.value("arguments", json()).dump(),
                    call.value("door", "") + " " + call.value("peer", "") + " " + call.value("client", ""),
                    local_time(call.value("expires_ms", std::int64_t{0}))});
  }
  print_table(out, {"ID", "TOOL", "ARGUMENTS", "CALLER", "EXPIRES"}, rows);
}

void print_audit(std::ostream& out, const json& entry) {
  if (entry.contains("lost")) {
    out << "-- " << text_of(entry["lost"])
        << " records lost: the ring no longer keeps them ([safety] audit_records); the journal does "
           "(journalctl MCPUD_AUDIT=1) --\n";
    out.flush();
    return;
  }
  std::string line =
      "#" + text_of(entry.value("seq", json())) + " " + local_time(entry.value("time_ms", std::int64_t{0}));
  for (const char* key : {"kind", "action", "door", "peer", "client", "by", "tool", "output", "value", "arguments",
                          "reason", "outcome"}) {
    const auto found = entry.find(key);
    if (found == entry.end() || found->is_null() || (found->is_string() && found->get<std::string>().empty())) continue;
    line += " ";
    line += found->is_string() ? found->get<std::string>() : found->dump();
  }
  if (entry.value("dry_run", false)) line += " (dry run)";
  if (entry.contains("approval")) line += " approval=" + text_of(entry["approval"]);
  out << (has_hidden_characters(line) ? escaped_text(line) : line) << "\n";
  out.flush();
}

void print_event(std::ostream& out, const json& event) {
  const std::string signal = event.value("signal", "");
  if (signal == "PinEvent") {
    out << local_time(event.value("timestamp_ms", std::int64_t{0})) << " PinEvent " << event.value("name", "") << " ("
        << event.value("pin", 0) << ") " << event.value("type", "")
        << " value=" << text_of(event.value("value", json())) << "\n";
  } else {
    out << signal << "\n";
  }
  out.flush();
}

namespace {

// The columns `text` takes on a terminal: UTF-8 characters, not bytes ("°C" is two).
std::size_t columns(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

void print_table(std::ostream& out, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& unescaped) {
  // Cells hold what devices and clients named things: none may break a row or drive the terminal.
  std::vector<std::vector<std::string>> rows;
  rows.reserve(unescaped.size());
  for (const auto& row : unescaped) {
    auto& shown = rows.emplace_back();
    for (const auto& cell : row) shown.push_back(escaped_text(cell));
  }
  std::vector<std::size_t> widths(header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], columns(row[i]));
  };
  measure(header);
  for (const auto& row : rows) measure(row);
  const auto print_row = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      out << row[i];
      if (i + 1 < row.size()) out << std::string(widths[i] - columns(row[i]) + 2, ' ');
    }
    out << "\n";
  };
  print_row(header);
  for (const auto& row : rows) print_row(row);
}

}  // namespace mcpud::ctl
