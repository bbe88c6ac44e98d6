// SPDX-License-Identifier: MIT
// The board's configured pins: each with its number, name, type, hardware handle
// and (for sampled inputs) its sample history. Single-threaded.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "mcpud/core/error.hpp"
#include "mcpud/core/sampler.hpp"
#include "mcpud/hal/gpio.hpp"
#include "mcpud/hal/pins.hpp"

namespace mcpud::tools {

struct BoardPin {
  config::PinConfig config;
  std::unique_ptr<hal::DigitalOutput> output;
  std::unique_ptr<hal::DigitalInput> input;
  std::unique_ptr<hal::PwmOutput> pwm;
  std::unique_ptr<hal::AnalogInput> adc;
  std::unique_ptr<PinSampler> sampler;  // null when the pin is not sampled
  hal::GpioInput* edges = nullptr;      // `input` when it reports edge events

  int number() const { return config.pin; }
  const std::string& name() const { return config.name; }
  hal::PinType type() const { return config.type; }
};

class PinTable {
 public:
  // Creates every configured pin on the configured board. Errors name the pin.
  static Result<std::unique_ptr<PinTable>> build(const config::Config& config);

  BoardPin* find(int number);
  BoardPin* find(std::string_view name);
  // Looks a pin up by a JSON number or name; PIN_NOT_FOUND otherwise.
  Result<BoardPin*> find(const nlohmann::json& pin);

  std::vector<std::unique_ptr<BoardPin>>& pins() { return pins_; }
  const std::vector<std::unique_ptr<BoardPin>>& pins() const { return pins_; }

  // Drives every output that has a safe value to it (on exit and before reload).
  void drive_safe_values();

 private:
  std::vector<std::unique_ptr<BoardPin>> pins_;
};

}  // namespace mcpud::tools
