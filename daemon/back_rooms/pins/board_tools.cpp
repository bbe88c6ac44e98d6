// SPDX-License-Identifier: MIT
// onewire_list: the 1-Wire devices in sysfs, which of them are thermometers.
#include "board_tools.hpp"

#include <stdexcept>

#include "mcpud/hal/onewire.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/pin_tools.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

const json kString = {{"type", "string"}};
const json kBoolean = {{"type", "boolean"}};

ToolResult onewire_list(const PinTable& pins) {
  auto devices = hal::list_onewire({pins.sysfs_root()});
  if (!devices) return std::unexpected(Error::domain(DomainError::ReadError, devices.error().message));
  json list = json::array();
  for (const auto& d : *devices) {
    json entry = {{"id", d.id}, {"family", d.family}, {"thermometer", d.thermometer}};
    if (!d.chip.empty()) entry["chip"] = d.chip;
    list.push_back(std::move(entry));
  }
  return json{{"devices", std::move(list)}};
}

void add(ToolRegistry& registry, Tool tool) {
  // Names are fixed and registered once per owner; a clash is a programming error.
  if (auto added = registry.add(std::move(tool)); !added) throw std::logic_error(added.error().message);
}

}  // namespace

void register_board_tools(ToolRegistry& registry, const PinTable& pins) {
  if (pins.board_kind() != BoardKind::RaspberryPi && pins.board_kind() != BoardKind::Linux) return;
  const json device = {{"type", "object"},
                       {"properties",
                        {{"id", kString}, {"family", kString}, {"chip", kString}, {"thermometer", kBoolean}}},
                       {"required", {"id", "family", "thermometer"}}};
  auto tool = make_tool(kPinToolsOwner, "onewire_list",
                        "List the 1-Wire devices the kernel found: id (use it as onewire = { id } of a sensor_input "
                        "pin), family code, chip, and whether it is a thermometer",
                        {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}},
                        {{"type", "object"},
                         {"properties", {{"devices", {{"type", "array"}, {"items", device}}}}},
                         {"required", {"devices"}}},
                        true);
  tool.invoke = [&pins](json, ToolReply reply) { reply(onewire_list(pins)); };
  add(registry, std::move(tool));
}

}  // namespace mcpud::pins
