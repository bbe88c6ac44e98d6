// SPDX-License-Identifier: MIT
// board_health: the host's health; onewire_list: the 1-Wire devices in sysfs.
#include "board_tools.hpp"

#include <stdexcept>

#include <cmath>
#include <cstdio>

#include "mcpud/hal/board_health.hpp"
#include "mcpud/hal/onewire.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/pin_tools.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

const json kString = {{"type", "string"}};
const json kBoolean = {{"type", "boolean"}};

ToolResult onewire_list(const PinTable& pins) {
  auto devices = hal::list_onewire({pins.onewire_root()});
  if (!devices) return std::unexpected(Error::domain(DomainError::ReadError, devices.error().message));
  json list = json::array();
  for (const auto& d : *devices) {
    json entry = {{"id", d.id}, {"family", d.family}, {"thermometer", d.thermometer}};
    if (!d.chip.empty()) entry["chip"] = d.chip;
    list.push_back(std::move(entry));
  }
  return json{{"devices", std::move(list)}};
}

// Flags the firmware did not give stay out of the reply: absent is not false.
json throttling_json(const hal::Throttling& t) {
  json out = {{"source", t.source}, {"under_voltage_now", t.under_voltage_now}};
  if (t.raw) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", *t.raw);
    out["raw"] = hex;
  }
  const std::pair<const char*, const std::optional<bool>&> flags[] = {
      {"frequency_capped_now", t.frequency_capped_now},
      {"throttled_now", t.throttled_now},
      {"soft_temperature_limit_now", t.soft_temperature_limit_now},
      {"under_voltage_occurred", t.under_voltage_occurred},
      {"frequency_capped_occurred", t.frequency_capped_occurred},
      {"throttled_occurred", t.throttled_occurred},
      {"soft_temperature_limit_occurred", t.soft_temperature_limit_occurred}};
  for (const auto& [name, flag] : flags) {
    if (flag) out[name] = *flag;
  }
  return out;
}

ToolResult board_health(const PinTable& pins) {
  const auto health = hal::read_board_health({pins.sysfs_root()}, pins.procfs_root());
  json out = json::object();
  if (const auto& t = health.cpu_temperature)
    out["cpu_temperature"] = {{"value", std::round(t->celsius * 1000) / 1000}, {"unit", "degC"}, {"zone", t->zone}};
  if (health.throttling) out["throttling"] = throttling_json(*health.throttling);
  if (const auto& l = health.load) out["load"] = {{"1m", (*l)[0]}, {"5m", (*l)[1]}, {"15m", (*l)[2]}};
  if (const auto& m = health.memory) {
    const double used = m->total_bytes ? 100.0 * (m->total_bytes - m->available_bytes) / m->total_bytes : 0;
    out["memory"] = {{"total_bytes", m->total_bytes},
                     {"available_bytes", m->available_bytes},
                     {"used_percent", std::round(used * 10) / 10}};
  }
  if (health.uptime_s) out["uptime_s"] = *health.uptime_s;
  return out;
}

json board_health_output() {
  const json number = {{"type", "number"}};
  const json object = {{"type", "object"}};
  return {{"type", "object"},
          {"properties",
           {{"cpu_temperature", object},
            {"throttling", object},
            {"load", object},
            {"memory", object},
            {"uptime_s", number}}}};
}

}  // namespace

void register_pin_tool(ToolRegistry& registry, Tool tool) {
  // Names are fixed and registered once per owner; a clash is a programming error.
  if (auto added = registry.add(std::move(tool)); !added) throw std::logic_error(added.error().message);
}

void register_board_tools(ToolRegistry& registry, const PinTable& pins) {
  auto health =
      make_tool({.owner = kPinToolsOwner,
                 .name = "board_health",
                 .title = "Check the board's health",
                 .description = "The board's health: CPU temperature (degC, from its thermal zone), Raspberry "
                                "Pi throttling and under-voltage flags with the file they were read from, "
                                "load averages, memory and uptime. A part the system does not expose is "
                                "absent, not false",
                 .input_schema = {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}},
                 .output_schema = board_health_output(),
                 .hints = kReads});
  health.invoke = [&pins](json, ToolReply reply) { reply(board_health(pins)); };
  register_pin_tool(registry, std::move(health));
  if (pins.onewire_root().empty()) return;
  const json device = {
      {"type", "object"},
      {"properties", {{"id", kString}, {"family", kString}, {"chip", kString}, {"thermometer", kBoolean}}},
      {"required", {"id", "family", "thermometer"}}};
  auto tool =
      make_tool({.owner = kPinToolsOwner,
                 .name = "onewire_list",
                 .title = "List 1-Wire devices",
                 .description = "List the 1-Wire devices the kernel found: id (use it as onewire = { id } of a "
                                "sensor_input pin), family code, chip, and whether it is a thermometer",
                 .input_schema = {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}},
                 .output_schema = {{"type", "object"},
                                   {"properties", {{"devices", {{"type", "array"}, {"items", device}}}}},
                                   {"required", {"devices"}}},
                 .hints = kReads});
  tool.invoke = [&pins](json, ToolReply reply) { reply(onewire_list(pins)); };
  register_pin_tool(registry, std::move(tool));
}

}  // namespace mcpud::pins
