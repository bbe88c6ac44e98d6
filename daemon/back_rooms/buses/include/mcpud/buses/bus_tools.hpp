// SPDX-License-Identifier: MIT
// The bus tool set: i2c_scan, i2c_read and i2c_write on the I2C buses and
// addresses [i2c] allows, spi_transfer on the SPI devices [spi] lists.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include "mcpud/buses/bus_config.hpp"
#include "mcpud/core/tool_registry.hpp"
#include "mcpud/hal/device_nodes.hpp"

namespace mcpud::buses {

inline constexpr const char* kI2cToolsOwner = "i2c";
inline constexpr const char* kSpiToolsOwner = "spi";

// What the tools read on every call: the configuration (replaced on reload)
// and the device nodes they open (the kernel's, the simulated board's, or a
// fake in tests). Devices are opened per call, so an adapter unplugged and
// back is used again without anything to reset.
class BusSettings {
 public:
  // Borrows `nodes`, which must outlive the settings (or be replaced first).
  explicit BusSettings(hal::DeviceNodes& nodes = hal::kernel_device_nodes()) : nodes_(&nodes) {}

  void set_i2c(I2cConfig config) { i2c_ = std::move(config); }
  void set_spi(SpiConfig config) { spi_ = std::move(config); }
  void set_nodes(hal::DeviceNodes& nodes) { nodes_ = &nodes; }
  const I2cConfig& i2c() const { return i2c_; }
  const SpiConfig& spi() const { return spi_; }
  hal::DeviceNodes& nodes() const { return *nodes_; }

 private:
  hal::DeviceNodes* nodes_;
  I2cConfig i2c_;
  SpiConfig spi_;
};

class LastTransfers;

// Registers i2c_scan, i2c_read and i2c_write under owner "i2c"; `settings`
// and `transfers` (told of each transfer that went through) must outlive them
// (remove them with registry.remove_owner("i2c")).
void register_i2c_tools(ToolRegistry& registry, const BusSettings& settings, LastTransfers& transfers);
// Registers spi_transfer under owner "spi".
void register_spi_tools(ToolRegistry& registry, const BusSettings& settings, LastTransfers& transfers);

}  // namespace mcpud::buses
