// SPDX-License-Identifier: MIT
// Building the pin table from the configuration, and pin lookup.
#include "mcpud/pins/pin_table.hpp"

#include <algorithm>
#include <cctype>

#include <limits>

#include "board_kinds.hpp"
#include "mcpud/core/log.hpp"

namespace mcpud::pins {

Result<std::unique_ptr<PinTable>> PinTable::build(const BoardConfig& board, const std::string& consumer,
                                                  const hal::SimBuses* sim_buses) {
  auto table = std::make_unique<PinTable>();
  table->board_kind_ = board.kind;
  table->sysfs_root_ = board.sysfs_root;
  table->procfs_root_ = board.procfs_root;
  if (board.kind == BoardKind::RaspberryPi || board.kind == BoardKind::Linux) table->onewire_root_ = board.sysfs_root;
  if (board.kind == BoardKind::Sim && sim_buses) table->onewire_root_ = sim_buses->sysfs_root();
  auto factory = make_pin_factory(board, consumer, sim_buses);
  // Outputs first, so loopback inputs find the output they are wired to.
  for (const bool outputs_pass : {true, false}) {
    for (const auto& pin_config : board.pins) {
      if ((pin_config.type == hal::PinType::DigitalOutput) != outputs_pass) continue;
      auto pin = std::make_unique<BoardPin>();
      pin->config = pin_config;
      if (auto attached = factory->attach(*pin); !attached) return std::unexpected(attached.error());
      if (pin_config.sampling) pin->sampler = std::make_unique<PinSampler>(*pin_config.sampling);
      table->pins_.push_back(std::move(pin));
    }
  }
  // Keep the configured order for listings.
  std::vector<std::unique_ptr<BoardPin>> ordered;
  for (const auto& pin_config : board.pins) {
    for (auto& pin : table->pins_) {
      if (pin && pin->name() == pin_config.name) ordered.push_back(std::move(pin));
    }
  }
  table->pins_ = std::move(ordered);
  return table;
}

BoardPin* PinTable::find(int number) {
  for (auto& pin : pins_) {
    if (pin->number() == number) return pin.get();
  }
  return nullptr;
}

BoardPin* PinTable::find(std::string_view name) {
  for (auto& pin : pins_) {
    if (pin->name() == name) return pin.get();
  }
  return foreign_ ? foreign_->find_pin(name) : nullptr;
}

Result<BoardPin*> PinTable::find(const nlohmann::json& pin) {
  BoardPin* found = nullptr;
  // Range-check before narrowing: 2^32 + 2 must not alias pin 2.
  if (pin.is_number_unsigned()) {
    if (const auto n = pin.get<std::uint64_t>(); n <= std::numeric_limits<int>::max())
      found = find(static_cast<int>(n));
  } else if (pin.is_number_integer()) {
    const auto n = pin.get<std::int64_t>();
    if (n >= std::numeric_limits<int>::min() && n <= std::numeric_limits<int>::max()) found = find(static_cast<int>(n));
  }
  if (pin.is_string()) {
    const auto& text = pin.get_ref<const std::string&>();
    found = find(std::string_view(text));
    // "34" names pin 34 where a pin is offered as a string (some hosts send numbers as text).
    if (!found && !text.empty() && text.size() <= 9 &&
        std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
      found = find(std::stoi(text));
  }
  if (found) return found;
  return std::unexpected(Error::domain(DomainError::PinNotFound, "Pin not found: " + pin.dump()));
}

void PinTable::drive_safe_values() {
  for (auto& pin : pins_) {
    const auto& c = pin->config;
    if (pin->output && c.safe_value) {
      if (auto r = pin->output->write(*c.safe_value); !r)
        log::warn("pins", c.name, ": safe value not driven: ", r.error().message);
    }
    if (pin->pwm && c.safe_duty) {
      const auto frequency = pin->pwm->state().frequency_hz;
      if (auto r = pin->pwm->set({*c.safe_duty / 255.0, frequency}); !r) {
        log::warn("pins", c.name, ": safe duty not driven: ", r.error().message);
      }
    }
  }
}

}  // namespace mcpud::pins
