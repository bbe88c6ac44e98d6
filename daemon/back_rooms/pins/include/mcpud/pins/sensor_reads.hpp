// SPDX-License-Identifier: MIT
// Reading sensor inputs without stalling the event loop: fast sensors (IIO,
// hwmon, thermal zones: microseconds) are read inline; slow ones (a 1-Wire
// thermometer's conversion takes up to 750 ms inside the kernel's read) on one
// worker thread, with the value handed back on the event loop.
// Event loop only; the worker thread touches nothing but the slow sensors it
// reads and its own queue.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "mcpud/hal/sensor.hpp"

namespace boost::asio {
class io_context;
}

namespace mcpud::pins {

class SensorReads {
 public:
  using Done = std::move_only_function<void(hal::HalResult<double>)>;
  // Reads queued for the worker, beyond which a read fails at once (each slow
  // sensor has at most one read in flight, so only a board with this many
  // slow sensors, or several reloads during one read, can reach it).
  static constexpr std::size_t kMaxQueued = 64;
  // Callers sharing one sensor's read in flight, beyond which a read fails at
  // once: a client pipelining reads of a 1-Wire thermometer cannot grow the
  // list without bound while it converts.
  static constexpr std::size_t kMaxWaiting = 256;

  // Borrows `io`, which must outlive this object; results are posted to it.
  explicit SensorReads(boost::asio::io_context& io);
  // Drops the callbacks still waiting. A worker blocked in a read is left to
  // finish on its own (and then exits without posting): shutdown and reload
  // never wait for a sensor.
  ~SensorReads();
  SensorReads(const SensorReads&) = delete;
  SensorReads& operator=(const SensorReads&) = delete;

  // Calls `done` with `sensor`'s value: at once for a fast sensor, later on the
  // event loop for a slow one. A slow sensor with a read in flight shares it:
  // every caller gets the same value and the sensor is read once (at most
  // kMaxWaiting callers; more are told the sensor is busy).
  void read(const std::shared_ptr<hal::SensorInput>& sensor, Done done);
  // True while a slow read of `sensor` is queued or in flight.
  bool in_flight(const hal::SensorInput& sensor) const { return pending_.contains(&sensor); }

 private:
  struct Worker;
  struct Pending {
    std::shared_ptr<hal::SensorInput> sensor;  // keeps the key's address from being reused
    std::vector<Done> waiting;
  };
  hal::HalResult<void> submit(const std::shared_ptr<hal::SensorInput>& sensor);
  static void work(std::shared_ptr<Worker> worker, boost::asio::io_context& io, SensorReads* owner,
                   std::weak_ptr<void> alive);
  void deliver(const hal::SensorInput* sensor, const hal::HalResult<double>& value);

  boost::asio::io_context& io_;
  std::map<const hal::SensorInput*, Pending> pending_;
  std::shared_ptr<void> alive_ = std::make_shared<int>(0);  // a posted value finds this object only while it lives
  std::shared_ptr<Worker> worker_;                          // started at the first slow read
};

}  // namespace mcpud::pins
