// SPDX-License-Identifier: MIT
// Pin resources of bridged devices' pins: listed after the board's own, read
// with their device and the last reading the device reported.
#include "mcpud/pins/pin_resources.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/sensor_reads.hpp"

namespace mcpud::pins {
namespace {

using nlohmann::json;

// Stands in for the bridge set: a device "uno" with an LED on 13.
class OneDevice final : public ForeignPins {
 public:
  OneDevice() {
    led_.config.name = "uno__led";
    led_.config.pin = 13;
    led_.config.type = hal::PinType::DigitalOutput;
    led_.config.description = "Onboard LED";
    led_.device = "uno";
  }
  BoardPin* find_pin(std::string_view name) override { return present_ && name == led_.name() ? &led_ : nullptr; }
  void for_each_pin(const std::function<void(const BoardPin&)>& visit) const override {
    if (present_) visit(led_);
  }

  BoardPin led_;
  bool present_ = true;
};

// A bridged pin's resource is answered at once, from what its device reported.
Result<json> read_now(PinTable& table, std::string_view uri) {
  boost::asio::io_context io;
  SensorReads reads(io);
  std::optional<Result<json>> out;
  read_pin_resource(table, reads, uri, [&](Result<json> r) { out = std::move(r); });
  EXPECT_TRUE(out.has_value()) << "no answer at once for " << uri;
  return out ? *out : std::unexpected(Error::internal("no answer"));
}

TEST(BridgedPinResources, AreListedWhileTheirDeviceIsPresent) {
  PinTable table;
  OneDevice device;
  table.set_foreign(&device);
  const json listed = list_pin_resources(table);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0]["uri"], "mcpu://pins/uno__led");
  EXPECT_EQ(listed[0]["description"], "[uno] Onboard LED (digital_output)");

  device.present_ = false;
  EXPECT_TRUE(list_pin_resources(table).empty());
  EXPECT_FALSE(read_now(table, "mcpu://pins/uno__led"));
}

TEST(BridgedPinResources, ReadTheirDeviceAndLastReading) {
  PinTable table;
  OneDevice device;
  table.set_foreign(&device);
  json read = *read_now(table, "mcpu://pins/uno__led");
  EXPECT_EQ(read["device"], "uno");
  EXPECT_EQ(read["type"], "digital_output");
  EXPECT_FALSE(read.contains("value")) << "no value before the device reported one";

  device.led_.reading = {{"value", true}};
  read = *read_now(table, "mcpu://pins/uno__led");
  EXPECT_EQ(read["value"], true);
  EXPECT_EQ(read["pin"], 13);
}

}  // namespace
}  // namespace mcpud::pins
