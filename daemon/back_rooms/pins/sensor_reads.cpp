// SPDX-License-Identifier: MIT
// Slow sensor reads on one worker thread, their values posted to the event loop.
#include "mcpud/pins/sensor_reads.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace mcpud::pins {

// Shared by the event loop and the thread, so that a thread still blocked in a
// read when SensorReads goes away keeps what it touches. Everything below the
// mutex is guarded by it.
struct SensorReads::Worker {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::shared_ptr<hal::SensorInput>> queue;
  bool closed = false;
  bool busy = false;  // a read is running outside the lock
  std::thread thread;
};

namespace {

hal::HalResult<double> read_guarded(hal::SensorInput& sensor) {
  try {
    return sensor.read();
  } catch (const std::exception& e) {  // nothing may escape a thread
    return std::unexpected(hal::HalError{hal::HalError::Kind::Io, std::string("reading the sensor: ") + e.what()});
  }
}

}  // namespace

SensorReads::SensorReads(boost::asio::io_context& io) : io_(io) {}

SensorReads::~SensorReads() {
  if (!worker_) return;
  bool busy = false;
  {
    std::lock_guard lock(worker_->mutex);
    worker_->closed = true;
    worker_->queue.clear();
    busy = worker_->busy;
  }
  worker_->wake.notify_one();
  // An idle worker exits at once; a busy one may be blocked in the kernel for
  // as long as the device takes, and exits after its read without posting.
  if (busy) {
    worker_->thread.detach();
  } else {
    worker_->thread.join();
  }
}

void SensorReads::read(const std::shared_ptr<hal::SensorInput>& sensor, Done done) {
  if (!sensor->slow()) return done(sensor->read());
  auto [entry, fresh] = pending_.try_emplace(sensor.get());
  if (entry->second.waiting.size() >= kMaxWaiting) {
    return done(std::unexpected(hal::HalError{
        hal::HalError::Kind::Io, "the sensor is busy: " + std::to_string(kMaxWaiting) +
                                     " reads already wait for its conversion; try again when they are answered"}));
  }
  entry->second.waiting.push_back(std::move(done));
  if (!fresh) return;  // shares the read in flight
  entry->second.sensor = sensor;
  if (auto queued = submit(sensor); !queued) deliver(sensor.get(), std::unexpected(queued.error()));
}

hal::HalResult<void> SensorReads::submit(const std::shared_ptr<hal::SensorInput>& sensor) {
  if (!worker_) {
    auto worker = std::make_shared<Worker>();
    try {
      worker->thread = std::thread(&SensorReads::work, worker, std::ref(io_), this, std::weak_ptr(alive_));
    } catch (const std::system_error& e) {
      return std::unexpected(
          hal::HalError{hal::HalError::Kind::Io, std::string("no thread for sensor reads: ") + e.what()});
    }
    worker_ = std::move(worker);
  }
  {
    std::lock_guard lock(worker_->mutex);
    if (worker_->queue.size() >= kMaxQueued) {
      return std::unexpected(hal::HalError{hal::HalError::Kind::Io,
                                           "too many slow sensor reads queued (" + std::to_string(kMaxQueued) + ")"});
    }
    worker_->queue.push_back(sensor);
  }
  worker_->wake.notify_one();
  return {};
}

void SensorReads::work(std::shared_ptr<Worker> worker, boost::asio::io_context& io, SensorReads* owner,
                       std::weak_ptr<void> alive) {
  std::unique_lock lock(worker->mutex);
  for (;;) {
    worker->wake.wait(lock, [&] { return worker->closed || !worker->queue.empty(); });
    if (worker->closed) return;
    auto sensor = std::move(worker->queue.front());
    worker->queue.pop_front();
    worker->busy = true;
    lock.unlock();
    auto value = read_guarded(*sensor);
    lock.lock();
    worker->busy = false;
    // Closed means the event loop side is gone (and io may be next): drop the value.
    if (worker->closed) return;
    // Posted under the lock, so the destructor cannot close in between.
    boost::asio::post(io, [owner, alive, key = sensor.get(), value = std::move(value)] {
      if (!alive.expired()) owner->deliver(key, value);
    });
  }
}

void SensorReads::deliver(const hal::SensorInput* sensor, const hal::HalResult<double>& value) {
  auto entry = pending_.find(sensor);
  if (entry == pending_.end()) return;
  auto waiting = std::move(entry->second.waiting);
  pending_.erase(entry);  // a waiter may start the next read
  for (auto& done : waiting) done(value);
}

}  // namespace mcpud::pins
