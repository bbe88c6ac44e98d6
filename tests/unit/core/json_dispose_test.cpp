// SPDX-License-Identifier: MIT
// Unit tests of dispose(): a call's arguments and result emptied level by level,
// and a value nested deeper than its bound still freed without recursion.
#include "mcpud/core/json_dispose.hpp"

#include <gtest/gtest.h>

namespace mcpud {
namespace {

using nlohmann::json;

TEST(JsonDispose, EmptiesAnObjectAndWhatItHolds) {
  json value = {{"name", "led"}, {"pin", 2}, {"nested", {{"list", {1, 2, {{"deep", "text"}}}}}}};
  json& nested = value["nested"];
  dispose(nested["list"]);
  EXPECT_EQ(nested["list"], json::array());
  dispose(value);
  EXPECT_EQ(value, json::object()) << "an emptied object stays an object";
}

TEST(JsonDispose, LeavesScalarsAsTheyAre) {
  json text = "kept";
  json number = 42;
  dispose(text);
  dispose(number);
  EXPECT_EQ(text, "kept");
  EXPECT_EQ(number, 42);
}

TEST(JsonDispose, AValueDeeperThanTheBoundIsFreedWithoutOverflowingTheStack) {
  // Recursing this deep would take more stack than a thread has; below its
  // bound dispose() leaves the rest to nlohmann's iterative destructor.
  constexpr int kLevels = 300000;
  json value = json::array();
  json* innermost = &value;
  for (int level = 0; level < kLevels; ++level) {
    innermost->push_back(json::array());
    innermost = &innermost->back();
  }
  dispose(value);
  EXPECT_EQ(value, json::array());
}

}  // namespace
}  // namespace mcpud
