// SPDX-License-Identifier: MIT
// The configured I2C and SPI devices as people look at them (the dashboard's
// bus cards, the mcpu://daemon/buses resource): what each is, what clients may
// do with it, whether a kernel driver owns it, and the last transfer a client
// made with it, published as EventKind::BusTransfer when it happens.
// Event loop only.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/buses/bus_config.hpp"
#include "mcpud/core/event_hub.hpp"

namespace mcpud::buses {

class BusSettings;

class LastTransfers {
 public:
  // Bytes of a transfer kept per device, as data and as hex; longer ones are cut.
  static constexpr std::size_t kKeptBytes = 64;

  // Borrows `events`, which must outlive this object.
  explicit LastTransfers(EventHub& events) : events_(events) {}

  // A transfer that went through, as its tool answered it ({mode, register?,
  // data, hex} of a read, {mode, register?, bytes_written} of a write), with
  // what was written (`sent`: a write's data or value, a transfer's bytes).
  void note_i2c(const std::string& tool, unsigned bus, unsigned address, const nlohmann::json& reply,
                const std::vector<std::uint8_t>& sent);
  void note_spi(unsigned bus, unsigned chip_select, const nlohmann::json& reply, const std::vector<std::uint8_t>& sent);
  // Forgets the devices `settings` no longer configures (after a reload).
  void keep_configured(const BusSettings& settings);

  // {i2c: [{bus, address, hex, name, write, force, driver?, last?}],
  //  spi: [{bus, chip_select, device, name, max_speed_hz, last?}]}
  nlohmann::json describe(const BusSettings& settings) const;

 private:
  void note(std::string key, nlohmann::json device, nlohmann::json last);

  EventHub& events_;
  std::map<std::string, nlohmann::json> last_;  // by device ("i2c-1-0x76", "spidev0.0"): its last transfer
};

}  // namespace mcpud::buses
