// SPDX-License-Identifier: MIT
// The built-in simulated board (config/examples/sim.toml) builds and offers every pin tool.
#include <gtest/gtest.h>

#include "config.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/pin_tools.hpp"

namespace mcpud::config {
namespace {

TEST(BuiltinBoard, BuildsAndRegistersEveryPinTool) {
  const auto config = builtin();
  auto table = pins::PinTable::build(config.board, config.device);
  ASSERT_TRUE(table) << table.error().message;
  ToolRegistry registry;
  pins::register_pin_tools(registry, **table);
  EXPECT_EQ(registry.size(), 9u);  // sensor_read and board_health too
  EXPECT_EQ((*table)->pins().size(), config.board.pins.size());
}

}  // namespace
}  // namespace mcpud::config
