// SPDX-License-Identifier: MIT
// sensor_read on simulated sensors: the reply names value, unit and quantity,
// the tool's description lists each sensor with its unit, and it exists only
// on boards that have sensors.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <optional>
#include <string>

#include "mcpud/core/schema.hpp"
#include "mcpud/core/toml_document.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/pins/pin_config.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/pin_tools.hpp"
#include "mcpud/pins/sensor_reads.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

std::unique_ptr<PinTable> table_from(std::string_view toml) {
  auto document = read_toml_document(toml, "test.toml");
  EXPECT_TRUE(document);
  json schema = {{"type", "object"}, {"properties", json::object()}};
  add_board_schema(schema);
  EXPECT_TRUE(schema::validate(schema, *document, ""));
  auto board = parse_board_config(*document);
  EXPECT_TRUE(board) << board.error();
  auto table = PinTable::build(*board, "test");
  EXPECT_TRUE(table) << table.error().message;
  return std::move(*table);
}

constexpr const char* kSensors = R"(
[[pins]]
name = "room_temp"
pin = 40
type = "sensor_input"
sim = { quantity = "temperature", waveform = "constant", min = 21.25, max = 21.25 }

[[pins]]
name = "light"
pin = 41
type = "sensor_input"
sim = { quantity = "proximity", waveform = "constant", min = 3, max = 3 }

[[pins]]
name = "led"
pin = 2
type = "digital_output"
)";

ToolResult call(ToolRegistry& registry, std::string_view tool, json args) {
  std::optional<ToolResult> result;
  registry.call(Caller{}, tool, std::move(args), [&](ToolResult r) { result = std::move(r); });
  return result.value_or(std::unexpected(Error::internal("no reply")));
}

TEST(SensorTools, SensorReadNamesValueUnitAndQuantity) {
  auto pins = table_from(kSensors);
  ToolRegistry registry;
  boost::asio::io_context io;
  SensorReads reads(io);
  register_pin_tools(registry, *pins, reads);
  auto by_number = call(registry, "sensor_read", {{"pin", 40}});
  ASSERT_TRUE(by_number) << by_number.error().message;
  EXPECT_EQ(*by_number, json::parse(R"({"pin":40,"name":"room_temp","value":21.25,"unit":"degC",
                                       "quantity":"temperature"})"));
  auto by_name = call(registry, "sensor_read", {{"name", "light"}});
  ASSERT_TRUE(by_name);
  EXPECT_EQ((*by_name)["unit"], "");
  auto wrong = call(registry, "sensor_read", {{"pin", 2}});
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().name, "WRONG_PIN_TYPE");
}

TEST(SensorTools, DescriptionAndRegistryNameEachSensorsUnit) {
  auto pins = table_from(kSensors);
  ToolRegistry registry;
  boost::asio::io_context io;
  SensorReads reads(io);
  register_pin_tools(registry, *pins, reads);
  const auto tool = registry.find("sensor_read");
  ASSERT_NE(tool, nullptr);
  EXPECT_NE(tool->description.find("Sensors: 40 room_temp (temperature, degC), 41 light (proximity)"),
            std::string::npos)
      << tool->description;
  const json described = describe_pins(*pins);
  EXPECT_EQ(described[0]["unit"], "degC");
  EXPECT_EQ(described[0]["quantity"], "temperature");
  EXPECT_FALSE(described[2].contains("unit"));
}

TEST(SensorTools, NoSensorsNoSensorRead) {
  auto pins = table_from("[[pins]]\nname = \"led\"\npin = 2\ntype = \"digital_output\"\n");
  ToolRegistry registry;
  boost::asio::io_context io;
  SensorReads reads(io);
  register_pin_tools(registry, *pins, reads);
  EXPECT_EQ(registry.find("sensor_read"), nullptr);
}

}  // namespace
}  // namespace mcpud::pins
