// SPDX-License-Identifier: MIT
// The built-in simulated board (config/examples/sim.toml) builds, on its own
// buses, and offers every pin tool.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "config.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/hal/sim_buses.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/pin_tools.hpp"
#include "mcpud/pins/sensor_reads.hpp"

namespace mcpud::config {
namespace {

TEST(BuiltinBoard, BuildsAndRegistersEveryPinTool) {
  const auto config = builtin();
  auto buses = hal::SimBuses::make();
  ASSERT_TRUE(buses) << buses.error().message;
  auto table = pins::PinTable::build(config.board, config.device, buses->get());
  ASSERT_TRUE(table) << table.error().message;
  ToolRegistry registry;
  boost::asio::io_context io;
  pins::SensorReads reads(io);
  pins::register_pin_tools(registry, **table, reads);
  EXPECT_EQ(registry.size(), 10u);  // sensor_read, board_health and onewire_list too
  EXPECT_EQ((*table)->pins().size(), config.board.pins.size());
}

}  // namespace
}  // namespace mcpud::config
