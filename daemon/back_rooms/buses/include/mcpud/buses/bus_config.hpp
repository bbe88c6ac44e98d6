// SPDX-License-Identifier: MIT
// The [i2c] and [spi] tables of mcpud.toml: which I2C buses and addresses and
// which SPI devices clients may use, and how (an I2C address is read-only
// unless `write`, never used while a kernel driver owns it unless `force`),
// with the bounds on transfers.
// Plain data and functions without state; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcpud::buses {

// Defaults are the schema's, read in by the parse functions.
struct I2cDeviceConfig {
  std::uint8_t address{};  // 7-bit
  std::string name;        // what it is, shown by i2c_scan
  bool write{};            // i2c_write allowed; else read-only
  bool force{};            // use it even while a kernel driver owns it
};

struct I2cBusConfig {
  unsigned bus{};  // /dev/i2c-<bus>
  bool scan{};     // i2c_scan allowed on this bus
  std::vector<I2cDeviceConfig> devices;
  std::size_t index{};  // its place in i2c.buses, for messages naming a key

  const I2cDeviceConfig* device(std::uint8_t address) const;
};

struct I2cConfig {
  std::vector<I2cBusConfig> buses;
  std::size_t max_transfer_bytes{};  // per message of a plain I2C transfer
  std::string dev_root;              // where i2c-N device nodes are
  std::string sysfs_root;            // where bus/i2c/devices/N-00AA/driver is looked up

  const I2cBusConfig* bus(unsigned number) const;
};

struct SpiDeviceConfig {
  unsigned bus{};
  unsigned chip_select{};
  std::string name;
  std::uint32_t max_speed_hz{};
  std::size_t max_transfer_bytes{};
  std::size_t index{};  // its place in spi.devices
};

struct SpiConfig {
  std::vector<SpiDeviceConfig> devices;
  std::string dev_root;  // where spidevB.C device nodes are

  const SpiDeviceConfig* device(unsigned bus, unsigned chip_select) const;
};

// The JSON Schemas of the [i2c] and [spi] tables (parts of the config schema).
extern const char* const kI2cConfigSchema;
extern const char* const kSpiConfigSchema;

// From the validated tables (defaults filled in). Errors name the key path
// ("i2c.buses[1].devices[0].address: 0x48 is listed twice on bus 1").
std::expected<I2cConfig, std::string> parse_i2c_config(const nlohmann::json& table);
std::expected<SpiConfig, std::string> parse_spi_config(const nlohmann::json& table);

// "0x48"
std::string hex_address(unsigned address);

}  // namespace mcpud::buses
