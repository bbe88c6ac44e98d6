// SPDX-License-Identifier: MIT
// Who may touch which I2C address: the [i2c] allow list (bus, address,
// read-only unless `write`) and the kernel's claim on an address (a device
// declared at N-00AA in sysfs, usually with a driver bound), which keeps
// clients off unless the address has `force`.
// Plain functions; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "mcpud/buses/bus_config.hpp"
#include "mcpud/core/error.hpp"

namespace mcpud::buses {

// A device the kernel declared at an address: bound to `driver`, or to none yet.
struct AddressOwner {
  std::string device;  // "1-0048", its name under /sys/bus/i2c/devices
  std::string driver;  // "lm75"; empty when no driver is bound
};

// The kernel's device at `address` on `bus`, if it declared one.
std::optional<AddressOwner> address_owner(const std::string& sysfs_root, unsigned bus, std::uint8_t address);

enum class I2cAccess { Read, Write };

// The configured device a call may use, and whether it needs I2C_SLAVE_FORCE.
struct I2cTarget {
  const I2cBusConfig* bus = nullptr;
  const I2cDeviceConfig* device = nullptr;
  bool force = false;
};

// NOT_AUTHORIZED when the bus or address is not configured or a write goes to
// a read-only address (naming the key to set); BUSY when a kernel driver owns
// the address and it has no `force` (naming the driver).
Result<I2cTarget> check_i2c_access(const I2cConfig& config, unsigned bus, unsigned address, I2cAccess access);

// NOT_AUTHORIZED when `bus` is not configured or its scan is off.
Result<const I2cBusConfig*> check_i2c_scan(const I2cConfig& config, unsigned bus);

}  // namespace mcpud::buses
