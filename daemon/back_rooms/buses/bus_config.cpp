// SPDX-License-Identifier: MIT
// [i2c] and [spi]: schemas, parsing, and the checks a schema cannot express.
#include "mcpud/buses/bus_config.hpp"

#include <cstdio>
#include <set>
#include <utility>

namespace mcpud::buses {

using nlohmann::json;

// Addresses 0x00-0x07 and 0x78-0x7F are reserved by the I2C specification
// (general call, CBUS, 10-bit addressing...): never a device's.
const char* const kI2cConfigSchema = R"json({
  "type": "object",
  "additionalProperties": false,
  "default": {},
  "properties": {
    "max_transfer_bytes": {"type": "integer", "minimum": 1, "maximum": 8192, "default": 256},
    "dev_root": {"type": "string", "minLength": 1, "default": "/dev"},
    "sysfs_root": {"type": "string", "minLength": 1, "default": "/sys"},
    "buses": {
      "type": "array",
      "default": [],
      "maxItems": 64,
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["bus"],
        "properties": {
          "bus": {"type": "integer", "minimum": 0, "maximum": 1023},
          "scan": {"type": "boolean", "default": true},
          "devices": {
            "type": "array",
            "default": [],
            "maxItems": 112,
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["address"],
              "properties": {
                "address": {"type": "integer", "minimum": 8, "maximum": 119},
                "name": {"type": "string", "maxLength": 64, "default": ""},
                "write": {"type": "boolean", "default": false},
                "force": {"type": "boolean", "default": false}
              }
            }
          }
        }
      }
    }
  }
})json";

const char* const kSpiConfigSchema = R"json({
  "type": "object",
  "additionalProperties": false,
  "default": {},
  "properties": {
    "dev_root": {"type": "string", "minLength": 1, "default": "/dev"},
    "devices": {
      "type": "array",
      "default": [],
      "maxItems": 64,
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["bus", "chip_select"],
        "properties": {
          "bus": {"type": "integer", "minimum": 0, "maximum": 1023},
          "chip_select": {"type": "integer", "minimum": 0, "maximum": 255},
          "name": {"type": "string", "maxLength": 64, "default": ""},
          "max_speed_hz": {"type": "integer", "minimum": 1000, "maximum": 200000000, "default": 1000000},
          "max_transfer_bytes": {"type": "integer", "minimum": 1, "maximum": 65536, "default": 4096}
        }
      }
    }
  }
})json";

std::string hex_address(unsigned address) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", address & 0x3FFu);
  return text;
}

const I2cDeviceConfig* I2cBusConfig::device(std::uint8_t address) const {
  for (const auto& d : devices) {
    if (d.address == address) return &d;
  }
  return nullptr;
}

const I2cBusConfig* I2cConfig::bus(unsigned number) const {
  for (const auto& b : buses) {
    if (b.bus == number) return &b;
  }
  return nullptr;
}

const SpiDeviceConfig* SpiConfig::device(unsigned bus, unsigned chip_select) const {
  for (const auto& d : devices) {
    if (d.bus == bus && d.chip_select == chip_select) return &d;
  }
  return nullptr;
}

namespace {

std::expected<I2cBusConfig, std::string> parse_i2c_bus(const json& j, std::size_t index) {
  const std::string where = "i2c.buses[" + std::to_string(index) + "]";
  I2cBusConfig bus;
  bus.bus = j.at("bus").get<unsigned>();
  bus.scan = j.at("scan").get<bool>();
  bus.index = index;
  const auto& devices = j.at("devices");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    I2cDeviceConfig device{d.at("address").get<std::uint8_t>(), d.at("name").get<std::string>(),
                           d.at("write").get<bool>(), d.at("force").get<bool>()};
    if (bus.device(device.address)) {
      return std::unexpected(where + ".devices[" + std::to_string(i) + "].address: " + hex_address(device.address) +
                             " is listed twice on bus " + std::to_string(bus.bus));
    }
    bus.devices.push_back(std::move(device));
  }
  return bus;
}

}  // namespace

std::expected<I2cConfig, std::string> parse_i2c_config(const json& t) {
  I2cConfig config;
  config.max_transfer_bytes = t.at("max_transfer_bytes").get<std::size_t>();
  config.dev_root = t.at("dev_root").get<std::string>();
  config.sysfs_root = t.at("sysfs_root").get<std::string>();
  const auto& buses = t.at("buses");
  for (std::size_t i = 0; i < buses.size(); ++i) {
    auto bus = parse_i2c_bus(buses[i], i);
    if (!bus) return std::unexpected(bus.error());
    if (config.bus(bus->bus)) {
      return std::unexpected("i2c.buses[" + std::to_string(i) + "].bus: bus " + std::to_string(bus->bus) +
                             " is listed twice");
    }
    config.buses.push_back(std::move(*bus));
  }
  return config;
}

std::expected<SpiConfig, std::string> parse_spi_config(const json& t) {
  SpiConfig config;
  config.dev_root = t.at("dev_root").get<std::string>();
  const auto& devices = t.at("devices");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    SpiDeviceConfig device{d.at("bus").get<unsigned>(),
                           d.at("chip_select").get<unsigned>(),
                           d.at("name").get<std::string>(),
                           d.at("max_speed_hz").get<std::uint32_t>(),
                           d.at("max_transfer_bytes").get<std::size_t>(),
                           i};
    if (config.device(device.bus, device.chip_select)) {
      return std::unexpected("spi.devices[" + std::to_string(i) + "]: spidev" + std::to_string(device.bus) + "." +
                             std::to_string(device.chip_select) + " is listed twice");
    }
    config.devices.push_back(std::move(device));
  }
  return config;
}

}  // namespace mcpud::buses
