// SPDX-License-Identifier: MIT
// The pins back room as the daemon sees it: the board's pins built from the
// configuration, their tools in the registry and their sampling running; all
// replaced together when the configuration changes. Event loop only.
#pragma once

#include <cstddef>
#include <expected>
#include <memory>
#include <string>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/pins/output_guard.hpp"
#include "mcpud/pins/pin_config.hpp"
#include "mcpud/pins/pin_table.hpp"
#include "mcpud/pins/sensor_reads.hpp"

namespace boost::asio {
class io_context;
}

namespace mcpud::pins {

class PinSampling;
class LoopGuardClock;

class PinService {
 public:
  // Borrows all three; they must outlive this service.
  PinService(boost::asio::io_context& io, ToolRegistry& registry, EventHub& events);
  ~PinService();
  PinService(const PinService&) = delete;
  PinService& operator=(const PinService&) = delete;

  // Builds the pins `board` names and registers their tools, replacing the
  // running ones; `consumer` labels the GPIO lines, `foreign` (nullable, must
  // outlive this service) finds pins of bridged devices by name, `sim_buses`
  // (nullable, must outlive this service) is the simulated board's buses.
  // Real GPIO lines and PWM channels are held exclusively, so the running ones
  // are freed first and taken back when the new set cannot be built. The error
  // names the pin.
  std::expected<void, std::string> apply(const BoardConfig& board, const std::string& consumer, ForeignPins* foreign,
                                         const hal::SimBuses* sim_buses = nullptr);
  // Stops sampling and the guard's timers, and (with `drive_safe_values`)
  // drives every output that has a safe value to it.
  void stop(bool drive_safe_values = true);

  // The limits of the outputs, kept across reloads; release_all() is the emergency stop's.
  OutputGuard& guard() { return *guard_; }
  const OutputGuard& guard() const { return *guard_; }

  PinTable& table() { return *table_; }
  const PinTable& table() const { return *table_; }
  std::size_t size() const { return table_->pins().size(); }
  // Reads sensors without stalling the loop; lives across reloads, so a slow
  // read in flight still answers after one.
  SensorReads& sensor_reads() { return reads_; }

 private:
  void release();
  void install(std::unique_ptr<PinTable> table, ForeignPins* foreign);

  boost::asio::io_context& io_;
  ToolRegistry& registry_;
  EventHub& events_;
  SensorReads reads_;
  std::unique_ptr<LoopGuardClock> guard_clock_;
  std::unique_ptr<OutputGuard> guard_;
  std::unique_ptr<PinTable> table_ = std::make_unique<PinTable>();
  std::unique_ptr<PinSampling> sampling_;
  BoardConfig running_;  // what table_ was built from
  std::string consumer_;
  ForeignPins* running_foreign_ = nullptr;
  const hal::SimBuses* running_sim_buses_ = nullptr;
};

// Checks a configuration the way the daemon would use it, without taking any
// hardware: simulated pins are built (on `sim_buses`, nullable, for 1-Wire
// thermometers), GPIO lines of a real board are looked up (so `mcpud
// --check-config` works while mcpud runs). The error names the pin.
std::expected<void, std::string> check_board(const BoardConfig& board, const std::string& consumer,
                                             const hal::SimBuses* sim_buses = nullptr);

}  // namespace mcpud::pins
