// SPDX-License-Identifier: MIT
// SensorReads: a slow sensor is read off the event loop, callers of a read in
// flight share it, a fast sensor answers at once, and going away while a read
// is blocked neither waits for it nor delivers to the dead. Sampling a slow
// sensor skips its ticks while a read converts, and takes the value when it comes.
#include "mcpud/pins/sensor_reads.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/pins/pin_sampling.hpp"
#include "mcpud/pins/pin_table.hpp"

namespace mcpud::pins {
namespace {

// A sensor whose read blocks until the test releases it, like a 1-Wire
// conversion that has not finished.
class GatedSensor final : public hal::SensorInput {
 public:
  explicit GatedSensor(bool slow) : slow_(slow) {}
  hal::HalResult<double> read() override {
    ++reads;
    if (slow_) opened_.wait();
    return 21.5;
  }
  const hal::Quantity& quantity() const override { return quantity_; }
  bool slow() const override { return slow_; }

  std::promise<void> gate;
  std::atomic<int> reads = 0;

 private:
  bool slow_;
  std::shared_future<void> opened_ = gate.get_future().share();
  hal::Quantity quantity_{"temperature", "degC"};
};

TEST(SensorReads, FastSensorAnswersAtOnce) {
  boost::asio::io_context io;
  SensorReads reads(io);
  auto sensor = std::make_shared<GatedSensor>(false);
  std::optional<double> value;
  reads.read(sensor, [&](const hal::HalResult<double>& v) { value = *v; });
  EXPECT_EQ(value, 21.5);
}

TEST(SensorReads, SlowSensorAnswersOnTheLoopAndCallersShareOneRead) {
  boost::asio::io_context io;
  SensorReads reads(io);
  auto sensor = std::make_shared<GatedSensor>(true);
  std::vector<double> values;
  reads.read(sensor, [&](const hal::HalResult<double>& v) { values.push_back(*v); });
  reads.read(sensor, [&](const hal::HalResult<double>& v) { values.push_back(*v); });
  EXPECT_TRUE(values.empty()) << "a slow read must not answer inline";
  EXPECT_TRUE(reads.in_flight(*sensor));
  sensor->gate.set_value();
  auto work = boost::asio::make_work_guard(io);  // run_one waits for the posted value
  while (values.size() < 2) io.run_one();
  EXPECT_EQ(values, (std::vector<double>{21.5, 21.5}));
  EXPECT_EQ(sensor->reads, 1);
  EXPECT_FALSE(reads.in_flight(*sensor));
}

TEST(SensorReads, CallersWaitingForOneReadAreBounded) {
  boost::asio::io_context io;
  SensorReads reads(io);
  auto sensor = std::make_shared<GatedSensor>(true);
  std::size_t values = 0;
  std::vector<std::string> refusals;
  const auto count = [&](const hal::HalResult<double>& v) {
    if (v) {
      ++values;
    } else {
      refusals.push_back(v.error().message);
    }
  };
  for (std::size_t i = 0; i < SensorReads::kMaxWaiting + 3; ++i) reads.read(sensor, count);
  ASSERT_EQ(refusals.size(), 3u) << "the callers past the bound are answered at once";
  EXPECT_NE(refusals.front().find("the sensor is busy"), std::string::npos) << refusals.front();
  sensor->gate.set_value();
  auto work = boost::asio::make_work_guard(io);
  while (values < SensorReads::kMaxWaiting) io.run_one();
  EXPECT_EQ(sensor->reads, 1);
  // The read answered, so the next caller starts a new one.
  EXPECT_FALSE(reads.in_flight(*sensor));
}

TEST(SensorReads, GoingAwayDuringABlockedReadDoesNotWaitForIt) {
  boost::asio::io_context io;
  auto sensor = std::make_shared<GatedSensor>(true);
  bool answered = false;
  {
    SensorReads reads(io);
    reads.read(sensor, [&](const hal::HalResult<double>&) { answered = true; });
    while (sensor->reads == 0) std::this_thread::yield();
  }  // returns while the worker is still blocked in read()
  sensor->gate.set_value();
  io.run_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(answered) << "a value read after shutdown is dropped";
}

TEST(SensorReads, SamplingASlowSensorSkipsTicksWhileItConvertsAndAddsTheValueOnce) {
  boost::asio::io_context io;
  SensorReads reads(io);
  EventHub events;
  PinTable table;
  auto sensor = std::make_shared<GatedSensor>(true);
  auto pin = std::make_unique<BoardPin>();
  pin->config.name = "tank";
  pin->config.type = hal::PinType::SensorInput;
  pin->sensor = sensor;
  SamplingOptions options;
  options.interval_ms = 1;
  pin->sampler = std::make_unique<PinSampler>(options);
  const PinSampler& sampler = *pin->sampler;
  table.pins().push_back(std::move(pin));
  PinSampling sampling(io, table, reads, events);
  sampling.start();

  io.run_for(std::chrono::milliseconds(30));  // some 30 ticks while the first read converts
  EXPECT_EQ(sensor->reads, 1) << "ticks during a conversion must not queue more reads";
  EXPECT_EQ(sampler.summary().count, 0u);
  sensor->gate.set_value();  // this and every later read answer at once
  while (sampler.summary().count == 0) io.run_one_for(std::chrono::milliseconds(10));
  EXPECT_EQ(sampler.summary().count, 1u) << "one conversion is one sample";
  EXPECT_EQ(sampler.summary().latest, 21.5);
  sampling.stop();
}

}  // namespace
}  // namespace mcpud::pins
