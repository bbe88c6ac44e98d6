// SPDX-License-Identifier: MIT
// The configured bus devices with their last transfers.
#include "mcpud/buses/bus_devices.hpp"

#include <chrono>

#include "i2c_access.hpp"
#include "i2c_request.hpp"
#include "mcpud/buses/bus_tools.hpp"
#include "spi_device.hpp"

namespace mcpud::buses {
namespace {

using nlohmann::json;

std::string i2c_key(unsigned bus, unsigned address) {
  return "i2c-" + std::to_string(bus) + "-" + hex_address(address);
}
std::string spi_key(unsigned bus, unsigned chip_select) { return spi_device_name(bus, chip_select); }

// The first kKeptBytes of `bytes`, as numbers and as hex, and how many there were.
void put_bytes(json& out, const char* key, const std::vector<std::uint8_t>& bytes) {
  const std::vector<std::uint8_t> kept(
      bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), LastTransfers::kKeptBytes)));
  out[key] = {{"hex", to_hex(kept)}, {"bytes", bytes.size()}};
  if (kept.size() < bytes.size()) out[key]["cut"] = true;
}

json last_of(const std::string& tool, const json& reply, const std::vector<std::uint8_t>& sent) {
  json last{{"tool", tool},
            {"time_ms",
             std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                 .count()}};
  for (const char* key : {"mode", "register", "value", "bytes_written", "speed_hz"}) {
    if (reply.contains(key)) last[key] = reply[key];
  }
  if (!sent.empty()) put_bytes(last, "sent", sent);
  if (reply.contains("data")) put_bytes(last, "read", reply["data"].get<std::vector<std::uint8_t>>());
  return last;
}

}  // namespace

void LastTransfers::note_i2c(const std::string& tool, unsigned bus, unsigned address, const json& reply,
                             const std::vector<std::uint8_t>& sent) {
  note(i2c_key(bus, address), {{"kind", "i2c"}, {"bus", bus}, {"address", address}}, last_of(tool, reply, sent));
}

void LastTransfers::note_spi(unsigned bus, unsigned chip_select, const json& reply,
                             const std::vector<std::uint8_t>& sent) {
  note(spi_key(bus, chip_select), {{"kind", "spi"}, {"bus", bus}, {"chip_select", chip_select}},
       last_of("spi_transfer", reply, sent));
}

void LastTransfers::note(std::string key, json device, json last) {
  if (events_.wanted(EventKind::BusTransfer)) {
    device["last"] = last;
    events_.publish({EventKind::BusTransfer, key, std::move(device)});
  }
  last_[std::move(key)] = std::move(last);
}

void LastTransfers::keep_configured(const BusSettings& settings) {
  std::map<std::string, json> kept;
  for (const auto& bus : settings.i2c().buses) {
    for (const auto& device : bus.devices) {
      const auto key = i2c_key(bus.bus, device.address);
      if (auto it = last_.find(key); it != last_.end()) kept[key] = std::move(it->second);
    }
  }
  for (const auto& device : settings.spi().devices) {
    const auto key = spi_key(device.bus, device.chip_select);
    if (auto it = last_.find(key); it != last_.end()) kept[key] = std::move(it->second);
  }
  last_ = std::move(kept);
}

json LastTransfers::describe(const BusSettings& settings) const {
  const auto with_last = [this](json entry, const std::string& key) {
    if (const auto it = last_.find(key); it != last_.end()) entry["last"] = it->second;
    return entry;
  };
  json i2c = json::array();
  for (const auto& bus : settings.i2c().buses) {
    for (const auto& d : bus.devices) {
      json entry{{"bus", bus.bus}, {"address", d.address}, {"hex", hex_address(d.address)},
                 {"name", d.name}, {"write", d.write},     {"force", d.force}};
      if (const auto owner = address_owner(settings.i2c().sysfs_root, bus.bus, d.address)) {
        entry["driver"] = owner->driver.empty() ? json(nullptr) : json(owner->driver);
      }
      i2c.push_back(with_last(std::move(entry), i2c_key(bus.bus, d.address)));
    }
  }
  json spi = json::array();
  for (const auto& d : settings.spi().devices) {
    json entry{{"bus", d.bus},
               {"chip_select", d.chip_select},
               {"device", spi_key(d.bus, d.chip_select)},
               {"name", d.name},
               {"max_speed_hz", d.max_speed_hz}};
    spi.push_back(with_last(std::move(entry), spi_key(d.bus, d.chip_select)));
  }
  return {{"i2c", std::move(i2c)}, {"spi", std::move(spi)}};
}

}  // namespace mcpud::buses
