// SPDX-License-Identifier: MIT
// One I2C adapter through i2c-dev (/dev/i2c-N): selecting an address, the SMBus
// transactions (I2C_SMBUS) and plain I2C transfers (I2C_RDWR), with errors that
// say what to do (which overlay or module, which group, which driver).
// Event loop only. Each call is one short ioctl: the kernel bounds it by the
// adapter's timeout (docs/RELIABILITY.md).
#pragma once

#include <linux/i2c.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mcpud/buses/device_fd.hpp"
#include "mcpud/core/error.hpp"

namespace mcpud::buses {

using Bytes = std::vector<std::uint8_t>;

// The SMBus block limit (I2C_SMBUS_BLOCK_MAX).
inline constexpr std::size_t kSmbusBlockMax = 32;
// What one I2C_RDWR may carry per message (the kernel's limit, 8192).
inline constexpr std::size_t kI2cMessageMax = 8192;

class I2cAdapter {
 public:
  // Opens <dev_root>/i2c-<bus>. OPEN_ERROR when missing (naming the overlay and
  // module to enable) or not an i2c-dev device, NOT_AUTHORIZED when permission
  // is denied (naming the i2c group).
  static Result<I2cAdapter> open(hal::DeviceNodes& nodes, const std::string& dev_root, unsigned bus);

  unsigned bus() const { return bus_; }
  // The adapter's I2C_FUNC_* bits.
  unsigned long functionality() const { return functionality_; }

  // Addresses the transactions below to `address`; `force` uses it even while a
  // kernel driver owns it (I2C_SLAVE_FORCE). BUSY when a driver owns it.
  Result<void> select(std::uint8_t address, bool force);

  Result<std::uint8_t> receive_byte();
  Result<std::uint8_t> read_byte(std::uint8_t reg);
  Result<std::uint16_t> read_word(std::uint8_t reg);
  // SMBus block read: the device says how many bytes (at most 32).
  Result<Bytes> read_block(std::uint8_t reg);
  // I2C block read: `length` bytes (1-32) from `reg` on.
  Result<Bytes> read_i2c_block(std::uint8_t reg, std::size_t length);

  Result<void> send_byte(std::uint8_t value);
  Result<void> write_byte(std::uint8_t reg, std::uint8_t value);
  Result<void> write_word(std::uint8_t reg, std::uint16_t value);
  Result<void> write_block(std::uint8_t reg, const Bytes& data);      // with a count byte, 1-32 bytes
  Result<void> write_i2c_block(std::uint8_t reg, const Bytes& data);  // without, 1-32 bytes

  // One plain I2C transfer: `write` (if any), then with a repeated start
  // `read_length` bytes (if any); each part at most kI2cMessageMax.
  Result<Bytes> transfer(const Bytes& write, std::size_t read_length);

  // Whether the selected address answers the way i2cdetect asks: a quick write,
  // or a read byte for the EEPROM and write-only-chip ranges (0x30-0x37,
  // 0x50-0x5F), where a quick write could change a chip's state. TIMEOUT when
  // the bus timed out (a stuck bus: the scan stops), DEVICE_DISCONNECTED when
  // the adapter shut down.
  Result<bool> probe();

  I2cAdapter(I2cAdapter&&) = default;
  I2cAdapter& operator=(I2cAdapter&&) = delete;
  I2cAdapter(const I2cAdapter&) = delete;
  I2cAdapter& operator=(const I2cAdapter&) = delete;
  ~I2cAdapter() = default;

 private:
  I2cAdapter(std::unique_ptr<DeviceFd> fd, unsigned bus, unsigned long functionality)
      : fd_(std::move(fd)), bus_(bus), functionality_(functionality) {}
  struct SmbusKind;
  // Refuses an operation the adapter cannot do (READ_ERROR or WRITE_ERROR naming it).
  Result<void> require(unsigned long bit, const char* what, bool writing) const;
  // One SMBus transaction of `kind`, refused first if the adapter cannot do it;
  // `what` names it in errors.
  Result<void> smbus(const SmbusKind& kind, std::uint8_t command, void* data, const std::string& what);
  // An SMBus read: what it leaves in `data` (which may say how many bytes to read).
  Result<i2c_smbus_data> smbus_read(const SmbusKind& kind, std::uint8_t command, const std::string& what,
                                    i2c_smbus_data data);
  std::string where() const;

  std::unique_ptr<DeviceFd> fd_;
  unsigned bus_;
  unsigned long functionality_;
  std::uint8_t address_ = 0;
};

// The error of a failed transfer: READ_ERROR or WRITE_ERROR, TIMEOUT,
// DEVICE_DISCONNECTED when the adapter went away. `error` is a positive errno.
Error transfer_error(int error, bool writing, const std::string& what);

}  // namespace mcpud::buses
