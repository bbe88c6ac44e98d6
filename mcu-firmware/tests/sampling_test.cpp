// SPDX-License-Identifier: MIT
// Background sampling of the firmware: summaries, ring buffers read with a since cursor, event queues.
#include "device_fixture.hpp"

namespace mcpu_test {
namespace {

class SamplingTest : public DeviceTest {
 protected:
  // Feeds analog values to A0, one per 100 ms sampling interval.
  void feedA0(std::initializer_list<int> values) {
    for (int v : values) {
      mcpu_host::setAnalog(0, v);
      tick(100);
    }
  }
};

TEST_F(SamplingTest, Summary_IsCumulativeWithExactAverage) {
  feedA0({100, 300, 301});
  const json result = request("get_pin_summary", {{"pin", "sensor"}})["result"];
  EXPECT_EQ(result["pin"], A0);
  EXPECT_EQ(result["name"], "sensor");
  EXPECT_EQ(result["samples"], 3);
  EXPECT_EQ(result["min"], 100);
  EXPECT_EQ(result["max"], 301);
  EXPECT_EQ(result["latest"], 301);
  EXPECT_DOUBLE_EQ(result["avg"].get<double>(), 233.67);  // 701 / 3, rounded to 2 decimals
}

TEST_F(SamplingTest, Summary_OnAPinWithoutSamplingIsAnError) {
  const json reply = request("get_pin_summary", {{"pin", "plain"}});
  EXPECT_EQ(reply["error"]["code"], -32602);
  EXPECT_EQ(reply["error"]["message"], "Summary not enabled for this pin: plain");
  EXPECT_EQ(reply["error"]["data"]["code"], "SAMPLING_NOT_ENABLED");
}

TEST_F(SamplingTest, Buffer_SinceCursorDrainsEachSampleOnce) {
  feedA0({10, 20});  // samples 1 and 2
  json r = request("get_pin_buffer", {{"pin", A0}})["result"];
  EXPECT_EQ(r["values"], (json{10, 20}));
  EXPECT_EQ(r["count"], 2);
  EXPECT_EQ(r["first_seq"], 1);
  EXPECT_EQ(r["next_since"], 2);
  EXPECT_EQ(r["last_seq"], 2);
  EXPECT_EQ(r["lost"], 0);
  EXPECT_EQ(r["interval_ms"], 100);
  EXPECT_EQ(r["pin"], "sensor");

  r = request("get_pin_buffer", {{"pin", A0}, {"since", 2}})["result"];
  EXPECT_EQ(r["count"], 0);
  EXPECT_EQ(r["values"], json::array());
  EXPECT_EQ(r["next_since"], 2);
  EXPECT_EQ(r["first_seq"], 3);

  feedA0({30});
  r = request("get_pin_buffer", {{"pin", A0}, {"since", 2}})["result"];
  EXPECT_EQ(r["values"], (json{30}));
  EXPECT_EQ(r["first_seq"], 3);
  EXPECT_EQ(r["next_since"], 3);
}

TEST_F(SamplingTest, Buffer_ReportsOverwrittenSamplesAsLost) {
  feedA0({1, 2, 3, 4, 5, 6, 7});  // 7 samples into a ring of 4: seq 4..7 remain
  json r = request("get_pin_buffer", {{"pin", "sensor"}, {"since", 1}})["result"];
  EXPECT_EQ(r["values"], (json{4, 5, 6, 7}));
  EXPECT_EQ(r["first_seq"], 4);
  EXPECT_EQ(r["lost"], 2);
  r = request("get_pin_buffer", {{"pin", "sensor"}, {"limit", 2}})["result"];
  EXPECT_EQ(r["values"], (json{4, 5}));  // the oldest N, as the reference does
  EXPECT_EQ(r["next_since"], 5);
}

TEST_F(SamplingTest, Buffer_OnAPinWithoutOneSaysSo) {
  const json r = request("get_pin_buffer", {{"pin", "plain"}})["result"];
  EXPECT_EQ(r["buffer_available"], false);
  EXPECT_EQ(r["pin"], "plain");
  EXPECT_TRUE(r.contains("reason"));
}

TEST_F(SamplingTest, Buffer_RejectsNegativeSince) {
  EXPECT_EQ(request("get_pin_buffer", {{"pin", "sensor"}, {"since", -1}})["error"]["message"],
            "Bad params: params.since: must be between 0 and 2147483647, got -1");
}

TEST_F(SamplingTest, ThresholdEvents_AreQueuedWithHysteresis) {
  feedA0({500, 900, 780, 700, 100, 260, 500});
  const json r = request("get_pin_events", {{"pin", "sensor"}})["result"];
  // 500 inside; 900 high; 780 is not 50 below 800; 700 is: in_range; 100 low; 260 in_range.
  std::vector<std::string> types;
  for (const auto& e : r["events"]) types.push_back(e["type"]);
  EXPECT_EQ(types, (std::vector<std::string>{"threshold_high", "in_range", "threshold_low", "in_range"}));
  EXPECT_EQ(r["count"], 4);
  EXPECT_EQ(r["last_seq"], 4);
  EXPECT_EQ(r["lost"], 0);
  EXPECT_EQ(r["events"][0]["threshold"], 800);
  EXPECT_EQ(r["events"][0]["value"], 900);
  const json last = r["events"].back();
  EXPECT_EQ(last["seq"], 4);
  EXPECT_EQ(last["value"], 260);
  EXPECT_EQ(last["threshold"], 200);
  EXPECT_EQ(last["timestamp_ms"], 600);
  const json later = request("get_pin_events", {{"pin", "sensor"}, {"since", 2}})["result"];
  EXPECT_EQ(later["count"], 2);
  EXPECT_EQ(later["first_seq"], 3);
  EXPECT_EQ(request("get_pin_events", {{"pin", "sensor"}, {"since", 4}})["result"]["count"], 0);
}

TEST_F(SamplingTest, EdgeEvents_ReportRisingAndFalling) {
  tick(10);
  mcpu_host::setDigital(2, true);
  tick(10);
  mcpu_host::setDigital(2, false);
  tick(10);
  const json r = request("get_pin_events", {{"pin", "button"}})["result"];
  ASSERT_EQ(r["count"], 2);
  EXPECT_EQ(r["events"][0]["type"], "rising");
  EXPECT_EQ(r["events"][1]["type"], "falling");
  EXPECT_FALSE(r["events"][0].contains("threshold"));
}

TEST_F(SamplingTest, Events_OnAPinWithoutThemSaySo) {
  const json r = request("get_pin_events", {{"pin", "plain"}})["result"];
  EXPECT_EQ(r["events_available"], false);
  EXPECT_EQ(r["events"], json::array());
}

}  // namespace
}  // namespace mcpu_test
