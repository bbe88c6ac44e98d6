// SPDX-License-Identifier: MIT
// A fake i2c-dev adapter behind hal::DeviceNodes: chips with 256 byte registers,
// answering the ioctls i2c-dev does (I2C_FUNCS, I2C_SLAVE, I2C_SMBUS,
// I2C_RDWR) the way i2c-stub does, so the bus tools run their real ioctl code.
// Single-threaded, like the tools.
#pragma once

#include <linux/i2c-dev.h>
#include <linux/i2c.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fake_node.hpp"

namespace mcpud::buses::testing {

class FakeI2c final : public FakeNode {
 public:
  FakeI2c() : FakeNode("/dev/i2c-1", 7) {}

  unsigned long functionality = I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL | I2C_FUNC_SMBUS_READ_BLOCK_DATA;
  std::map<std::uint8_t, std::array<std::uint8_t, 256>> chips;  // address -> registers
  std::set<std::uint8_t> busy;                                  // I2C_SLAVE gives EBUSY
  std::set<std::uint8_t> stuck;                                 // transactions time out (ETIMEDOUT)
  int absent_error = ENXIO;          // what an SMBus transaction to an absent chip gives (i2c-stub: ENODEV)
  std::vector<std::uint8_t> probed;  // addresses probed by quick or receive byte
  std::vector<int> probe_sizes;      // their I2C_SMBUS size
  std::vector<std::vector<std::uint8_t>> transfers_written;  // I2C_RDWR write messages
  bool forced = false;                                       // the last select used I2C_SLAVE_FORCE

  void add_chip(std::uint8_t address) { chips[address].fill(0); }

  int ioctl(int, unsigned long request, void* arg) override {
    switch (request) {
      case I2C_FUNCS:
        *static_cast<unsigned long*>(arg) = functionality;
        return 0;
      case I2C_SLAVE:
      case I2C_SLAVE_FORCE:
        address_ = static_cast<std::uint8_t>(reinterpret_cast<std::uintptr_t>(arg));
        forced = request == I2C_SLAVE_FORCE;
        if (!forced && busy.contains(address_)) return -EBUSY;
        return 0;
      case I2C_SMBUS:
        return smbus(*static_cast<i2c_smbus_ioctl_data*>(arg));
      case I2C_RDWR:
        return rdwr(*static_cast<i2c_rdwr_ioctl_data*>(arg));
      default:
        return -ENOTTY;
    }
  }

 private:
  int smbus(const i2c_smbus_ioctl_data& r) {
    const bool read = r.read_write == I2C_SMBUS_READ;
    if (r.size == I2C_SMBUS_QUICK || (r.size == I2C_SMBUS_BYTE && read)) {
      probed.push_back(address_);
      probe_sizes.push_back(static_cast<int>(r.size));
    }
    if (stuck.contains(address_)) return -ETIMEDOUT;
    const auto chip = chips.find(address_);
    if (chip == chips.end()) return -absent_error;
    auto& regs = chip->second;
    auto* data = r.data;
    switch (r.size) {
      case I2C_SMBUS_QUICK:
        return 0;
      case I2C_SMBUS_BYTE:
        if (read)
          data->byte = regs[pointer_];
        else
          pointer_ = r.command;
        return 0;
      case I2C_SMBUS_BYTE_DATA:
        if (read)
          data->byte = regs[r.command];
        else
          regs[r.command] = data->byte;
        return 0;
      case I2C_SMBUS_WORD_DATA:
        if (read)
          data->word = static_cast<__u16>(regs[r.command] | regs[(r.command + 1) & 0xFF] << 8);
        else
          regs[r.command] = data->word & 0xFF, regs[(r.command + 1) & 0xFF] = data->word >> 8;
        return 0;
      case I2C_SMBUS_BLOCK_DATA:  // as i2c-stub: the count at the register, the bytes after it
        if (read) {
          data->block[0] = std::min<std::uint8_t>(regs[r.command], 32);
          for (int i = 0; i < data->block[0]; ++i) data->block[1 + i] = regs[(r.command + 1 + i) & 0xFF];
        } else {
          if (data->block[0] > 32) return -EINVAL;
          regs[r.command] = data->block[0];
          for (int i = 0; i < data->block[0]; ++i) regs[(r.command + 1 + i) & 0xFF] = data->block[1 + i];
        }
        return 0;
      case I2C_SMBUS_I2C_BLOCK_DATA:
        if (data->block[0] > 32) return -EINVAL;
        for (int i = 0; i < data->block[0]; ++i) {
          auto& reg = regs[(r.command + i) & 0xFF];
          if (read)
            data->block[1 + i] = reg;
          else
            reg = data->block[1 + i];
        }
        return 0;
      default:
        return -EOPNOTSUPP;
    }
  }

  // A register pointer chip: the first byte written sets it, the rest are stored from it on.
  int rdwr(const i2c_rdwr_ioctl_data& r) {
    for (__u32 m = 0; m < r.nmsgs; ++m) {
      const auto& msg = r.msgs[m];
      const auto chip = chips.find(static_cast<std::uint8_t>(msg.addr));
      if (chip == chips.end()) return -EREMOTEIO;
      if (msg.flags & I2C_M_RD) {
        for (int i = 0; i < msg.len; ++i) msg.buf[i] = chip->second[pointer_++];
      } else {
        transfers_written.emplace_back(msg.buf, msg.buf + msg.len);
        if (msg.len > 0) pointer_ = msg.buf[0];
        for (int i = 1; i < msg.len; ++i) chip->second[pointer_++] = msg.buf[i];
      }
    }
    return static_cast<int>(r.nmsgs);
  }

  std::uint8_t address_ = 0;
  std::uint8_t pointer_ = 0;
};

}  // namespace mcpud::buses::testing
