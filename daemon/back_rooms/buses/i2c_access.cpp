// SPDX-License-Identifier: MIT
// The [i2c] allow list and the kernel's claims on addresses.
#include "i2c_access.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

namespace mcpud::buses {
namespace {

namespace fs = std::filesystem;

Error refused(std::string message) { return Error::domain(DomainError::NotAuthorized, std::move(message)); }

std::string bus_text(unsigned bus) { return "I2C bus " + std::to_string(bus); }

std::string configured_buses(const I2cConfig& config) {
  if (config.buses.empty()) return "none is";
  std::string out;
  for (const auto& b : config.buses) out += (out.empty() ? "" : ", ") + std::to_string(b.bus);
  return out + (config.buses.size() == 1 ? " is" : " are");
}

Result<const I2cBusConfig*> configured_bus(const I2cConfig& config, unsigned bus) {
  if (const auto* b = config.bus(bus)) return b;
  return std::unexpected(refused(bus_text(bus) + " is not configured (" + configured_buses(config) +
                                 "): add [[i2c.buses]] with bus = " + std::to_string(bus) + " to mcpud.toml"));
}

}  // namespace

std::optional<AddressOwner> address_owner(const std::string& sysfs_root, unsigned bus, std::uint8_t address) {
  char name[32];
  std::snprintf(name, sizeof name, "%u-%04x", bus, address);
  const fs::path device = fs::path(sysfs_root) / "bus/i2c/devices" / name;
  std::error_code ec;
  if (!fs::exists(device, ec)) return std::nullopt;
  AddressOwner owner{name, {}};
  const auto driver = fs::read_symlink(device / "driver", ec);
  if (!ec) owner.driver = driver.filename().string();
  return owner;
}

Result<const I2cBusConfig*> check_i2c_scan(const I2cConfig& config, unsigned bus) {
  auto b = configured_bus(config, bus);
  if (!b) return b;
  if (!(*b)->scan) {
    return std::unexpected(refused("scanning " + bus_text(bus) + " is off: set scan = true at i2c.buses[" +
                                   std::to_string((*b)->index) + "]"));
  }
  return b;
}

Result<I2cTarget> check_i2c_access(const I2cConfig& config, unsigned bus, unsigned address, I2cAccess access) {
  auto b = configured_bus(config, bus);
  if (!b) return std::unexpected(b.error());
  const std::string key = "i2c.buses[" + std::to_string((*b)->index) + "]";
  const std::string where = hex_address(address) + " on " + bus_text(bus);
  const auto* device = address <= 0x7F ? (*b)->device(static_cast<std::uint8_t>(address)) : nullptr;
  if (!device) {
    return std::unexpected(
        refused(where + " is not configured: add {address = " + hex_address(address) + "} to " + key + ".devices"));
  }
  std::size_t index = static_cast<std::size_t>(device - (*b)->devices.data());
  const std::string device_key = key + ".devices[" + std::to_string(index) + "]";
  if (access == I2cAccess::Write && !device->write) {
    return std::unexpected(refused(where + " is read-only: set write = true at " + device_key + " to allow i2c_write"));
  }
  I2cTarget target{*b, device, false};
  if (const auto owner = address_owner(config.sysfs_root, bus, device->address)) {
    if (!device->force) {
      const std::string whose = owner->driver.empty() ? "a kernel device (" + owner->device + ", no driver bound yet)"
                                                      : "kernel driver '" + owner->driver + "' (" + owner->device + ")";
      return std::unexpected(Error::domain(
          DomainError::Busy, where + " belongs to " + whose +
                                 ": use the driver's interface (hwmon, IIO), or set force = true at " + device_key));
    }
    target.force = true;
  }
  return target;
}

}  // namespace mcpud::buses
