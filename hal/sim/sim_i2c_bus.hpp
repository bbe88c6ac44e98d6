// SPDX-License-Identifier: MIT
// One simulated I2C bus and what i2c-dev makes of it: the adapter's
// functionality (that of an I2C-only controller such as the Raspberry Pi's
// i2c-bcm2835), I2C_SLAVE refusing with EBUSY an address a kernel driver
// holds (I2C_SLAVE_FORCE taking it anyway), SMBus transactions carried out
// as I2C messages the way the kernel's i2c-core emulates them for such a
// controller, and I2C_RDWR. Errors are the errno values the kernel gives.
// Event loop only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "i2c_target.hpp"

struct i2c_msg;

namespace mcpud::hal::sim {

class SimI2cBus {
 public:
  // The adapter's I2C_FUNCS.
  static unsigned long functionality();

  // Puts `target` at `address`; `driver_bound`: a kernel driver holds it.
  void attach(std::uint8_t address, std::unique_ptr<I2cTarget> target, bool driver_bound = false);
  I2cTarget* target(std::uint8_t address) const;

  // One i2c-dev ioctl from a descriptor whose selected address is `selected`
  // (which I2C_SLAVE and I2C_SLAVE_FORCE change): >= 0, or -errno.
  int ioctl(std::uint16_t& selected, unsigned long request, void* arg);

 private:
  struct Attached {
    std::unique_ptr<I2cTarget> target;
    bool driver_bound = false;
  };
  int select(std::uint16_t& selected, unsigned long address, bool force) const;
  int smbus(std::uint16_t address, void* arg);
  int rdwr(void* arg);
  // Runs one transfer: each message in turn with repeated starts, then STOP.
  // -EREMOTEIO (what the Raspberry Pi's controller reports) when an address
  // or a written byte is not acknowledged.
  int transfer(i2c_msg* messages, unsigned count);

  std::map<std::uint8_t, Attached> targets_;
};

}  // namespace mcpud::hal::sim
