// SPDX-License-Identifier: MIT
// The board's configured pins: each with its number, name, type, hardware handle
// and (for sampled inputs) its sample history. Single-threaded.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcpud/core/error.hpp"
#include "mcpud/core/sampler.hpp"
#include "mcpud/hal/gpio.hpp"
#include "mcpud/hal/pins.hpp"
#include "mcpud/hal/sensor.hpp"
#include "mcpud/hal/sim_buses.hpp"
#include "mcpud/pins/pin_config.hpp"

namespace mcpud::pins {

class OutputGuard;

struct BoardPin {
  PinConfig config;
  std::unique_ptr<hal::DigitalOutput> output;
  std::unique_ptr<hal::DigitalInput> input;
  std::unique_ptr<hal::PwmOutput> pwm;
  std::unique_ptr<hal::AnalogInput> adc;
  std::shared_ptr<hal::SensorInput> sensor;  // shared with a slow read in flight
  std::unique_ptr<PinSampler> sampler;       // null when the pin is not sampled
  hal::GpioInput* edges = nullptr;           // `input` when it reports edge events
  std::string device;                        // the bridged device it is on ("uno"); empty for the board's own pins
  // A bridged pin's last reading its device reported ({value, volts?} or {duty}); null before any.
  nlohmann::json reading;
  // Its writes pass through the OutputGuard (it has limits or a safe value); the others are written directly.
  bool guarded = false;

  int number() const { return config.pin; }
  const std::string& name() const { return config.name; }
  hal::PinType type() const { return config.type; }
};

// Pins that are not the board's own (those of bridged devices, named
// "<device>__<pin>"), found by name after the board's own.
class ForeignPins {
 public:
  virtual ~ForeignPins() = default;
  virtual BoardPin* find_pin(std::string_view name) = 0;
  // Visits every pin present now, in a stable order.
  virtual void for_each_pin(const std::function<void(const BoardPin&)>& visit) const = 0;
};

class PinTable {
 public:
  // Creates every configured pin on the configured board; `consumer` labels the
  // GPIO lines it requests; `sim_buses` (nullable, must outlive the table) is
  // the simulated board's buses, whose 1-Wire thermometers a board "sim" reads.
  // Errors name the pin.
  static Result<std::unique_ptr<PinTable>> build(const BoardConfig& board, const std::string& consumer,
                                                 const hal::SimBuses* sim_buses = nullptr);

  BoardPin* find(int number);
  BoardPin* find(std::string_view name);
  // Looks a pin up by a JSON number or name; PIN_NOT_FOUND otherwise.
  Result<BoardPin*> find(const nlohmann::json& pin);

  std::vector<std::unique_ptr<BoardPin>>& pins() { return pins_; }
  const std::vector<std::unique_ptr<BoardPin>>& pins() const { return pins_; }

  // Borrows `foreign` (nullable) for lookups by name; must outlive this table.
  void set_foreign(ForeignPins* foreign) { foreign_ = foreign; }
  bool has_foreign() const { return foreign_ != nullptr; }
  // Visits the present foreign pins (none without `foreign`).
  void for_each_foreign(const std::function<void(const BoardPin&)>& visit) const {
    if (foreign_) foreign_->for_each_pin(visit);
  }

  // The guard that has adopted this table's outputs (null before), for their limits in listings.
  const OutputGuard* guard() const { return guard_; }
  void set_guard(const OutputGuard* guard) { guard_ = guard; }

  // Drives every output that has a safe value to it (on exit and before reload).
  void drive_safe_values();

  // The board the table was built for, and where its sensors are found.
  BoardKind board_kind() const { return board_kind_; }
  const std::string& sysfs_root() const { return sysfs_root_; }
  // Where its 1-Wire devices are: the sysfs root of a real board, the
  // simulated board's own tree, or "" for a board without a 1-Wire bus.
  const std::string& onewire_root() const { return onewire_root_; }
  const std::string& procfs_root() const { return procfs_root_; }

 private:
  std::vector<std::unique_ptr<BoardPin>> pins_;
  BoardKind board_kind_ = BoardKind::None;
  std::string sysfs_root_ = "/sys";
  std::string onewire_root_;
  std::string procfs_root_ = "/proc";
  ForeignPins* foreign_ = nullptr;
  const OutputGuard* guard_ = nullptr;
};

}  // namespace mcpud::pins
