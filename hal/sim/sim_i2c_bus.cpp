// SPDX-License-Identifier: MIT
// i2c-dev's ioctls on a simulated bus, with the kernel's SMBus emulation.
#include "sim_i2c_bus.hpp"

#include <linux/i2c-dev.h>
#include <linux/i2c.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <set>

namespace mcpud::hal::sim {
namespace {

constexpr std::size_t kMaxMessageBytes = 8192;  // what i2c-dev accepts per I2C_RDWR message

bool is_smbus_size(std::uint32_t size) {
  switch (size) {
    case I2C_SMBUS_QUICK:
    case I2C_SMBUS_BYTE:
    case I2C_SMBUS_BYTE_DATA:
    case I2C_SMBUS_WORD_DATA:
    case I2C_SMBUS_PROC_CALL:
    case I2C_SMBUS_BLOCK_DATA:
    case I2C_SMBUS_I2C_BLOCK_BROKEN:
    case I2C_SMBUS_I2C_BLOCK_DATA:
    case I2C_SMBUS_BLOCK_PROC_CALL:
      return true;
    default:
      return false;
  }
}

// The messages i2c-core sends for one SMBus transaction on an I2C-only
// adapter (i2c_smbus_xfer_emulated), and where the answer lands.
struct SmbusMessages {
  std::array<std::uint8_t, I2C_SMBUS_BLOCK_MAX + 3> out{};
  std::array<std::uint8_t, I2C_SMBUS_BLOCK_MAX + 2> in{};
  std::array<i2c_msg, 2> msg{};
  unsigned count = 0;
};

// -EINVAL for a block the kernel refuses, -EOPNOTSUPP for what an I2C-only
// adapter cannot do (a read whose length the device sends), else 0.
int build(SmbusMessages& m, std::uint16_t address, const i2c_smbus_ioctl_data& r) {
  const bool read = r.read_write == I2C_SMBUS_READ;
  const i2c_smbus_data* data = r.data;
  m.out[0] = r.command;
  m.msg[0] = {address, 0, 1, m.out.data()};
  m.msg[1] = {address, I2C_M_RD, 0, m.in.data()};
  m.count = read ? 2 : 1;
  switch (r.size) {
    case I2C_SMBUS_QUICK:
      m.msg[0].len = 0;
      m.msg[0].flags = read ? I2C_M_RD : 0;
      m.count = 1;
      return 0;
    case I2C_SMBUS_BYTE:
      if (read) {
        m.msg[0] = {address, I2C_M_RD, 1, m.in.data()};
        m.count = 1;
      }
      return 0;
    case I2C_SMBUS_BYTE_DATA:
      if (read) {
        m.msg[1].len = 1;
      } else {
        m.msg[0].len = 2;
        m.out[1] = data->byte;
      }
      return 0;
    case I2C_SMBUS_WORD_DATA:
    case I2C_SMBUS_PROC_CALL:
      if (read || r.size == I2C_SMBUS_PROC_CALL) {
        m.msg[1].len = 2;
        m.count = 2;
      }
      if (!read || r.size == I2C_SMBUS_PROC_CALL) {
        m.msg[0].len = 3;
        m.out[1] = data->word & 0xFF;
        m.out[2] = data->word >> 8;
      }
      return 0;
    case I2C_SMBUS_BLOCK_DATA:
      if (read) return -EOPNOTSUPP;
      if (data->block[0] > I2C_SMBUS_BLOCK_MAX) return -EINVAL;
      m.msg[0].len = static_cast<__u16>(data->block[0] + 2);
      std::memcpy(m.out.data() + 1, data->block, data->block[0] + 1u);
      return 0;
    case I2C_SMBUS_I2C_BLOCK_BROKEN:
    case I2C_SMBUS_I2C_BLOCK_DATA:
      if (data->block[0] > I2C_SMBUS_BLOCK_MAX) return -EINVAL;
      if (read) {
        m.msg[1].len = data->block[0];
      } else {
        m.msg[0].len = static_cast<__u16>(data->block[0] + 1);
        std::memcpy(m.out.data() + 1, data->block + 1, data->block[0]);
      }
      return 0;
    default:
      return -EOPNOTSUPP;  // block process calls need the device to send a length
  }
}

// What a read transaction leaves in the caller's data.
void answer(const SmbusMessages& m, const i2c_smbus_ioctl_data& r) {
  auto* data = r.data;
  switch (r.size) {
    case I2C_SMBUS_BYTE:
      data->byte = m.in[0];
      break;
    case I2C_SMBUS_BYTE_DATA:
      data->byte = m.in[0];
      break;
    case I2C_SMBUS_WORD_DATA:
    case I2C_SMBUS_PROC_CALL:
      data->word = static_cast<__u16>(m.in[0] | m.in[1] << 8);
      break;
    case I2C_SMBUS_I2C_BLOCK_BROKEN:
    case I2C_SMBUS_I2C_BLOCK_DATA:
      std::memcpy(data->block + 1, m.in.data(), m.msg[1].len);
      break;
    default:
      break;
  }
}

}  // namespace

unsigned long SimI2cBus::functionality() {
  return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL | I2C_FUNC_PROTOCOL_MANGLING;  // as i2c-bcm2835 says
}

void SimI2cBus::attach(std::uint8_t address, std::unique_ptr<I2cTarget> target, bool driver_bound) {
  targets_[address] = {std::move(target), driver_bound};
}

I2cTarget* SimI2cBus::target(std::uint8_t address) const {
  const auto it = targets_.find(address);
  return it == targets_.end() ? nullptr : it->second.target.get();
}

int SimI2cBus::ioctl(std::uint16_t& selected, unsigned long request, void* arg) {
  switch (request) {
    case I2C_FUNCS:
      *static_cast<unsigned long*>(arg) = functionality();
      return 0;
    case I2C_SLAVE:
    case I2C_SLAVE_FORCE:
      return select(selected, reinterpret_cast<std::uintptr_t>(arg), request == I2C_SLAVE_FORCE);
    case I2C_SMBUS:
      return smbus(selected, arg);
    case I2C_RDWR:
      return rdwr(arg);
    case I2C_TENBIT:
    case I2C_PEC:
    case I2C_RETRIES:
    case I2C_TIMEOUT:
      return 0;
    default:
      return -ENOTTY;
  }
}

int SimI2cBus::select(std::uint16_t& selected, unsigned long address, bool force) const {
  if (address > 0x7F) return -EINVAL;
  // i2c-dev refuses an address a bound driver holds unless forced.
  const auto it = targets_.find(static_cast<std::uint8_t>(address));
  if (!force && it != targets_.end() && it->second.driver_bound) return -EBUSY;
  selected = static_cast<std::uint16_t>(address);
  return 0;
}

int SimI2cBus::smbus(std::uint16_t address, void* arg) {
  if (arg == nullptr) return -EFAULT;
  const auto& r = *static_cast<const i2c_smbus_ioctl_data*>(arg);
  if (!is_smbus_size(r.size) || (r.read_write != I2C_SMBUS_READ && r.read_write != I2C_SMBUS_WRITE)) return -EINVAL;
  const bool needs_data = !(r.size == I2C_SMBUS_QUICK || (r.size == I2C_SMBUS_BYTE && r.read_write == I2C_SMBUS_WRITE));
  if (needs_data && r.data == nullptr) return -EINVAL;
  SmbusMessages m;
  if (const int built = build(m, address, r); built < 0) return built;
  if (const int done = transfer(m.msg.data(), m.count); done < 0) return done;
  if (r.read_write == I2C_SMBUS_READ || r.size == I2C_SMBUS_PROC_CALL) answer(m, r);
  return 0;
}

int SimI2cBus::rdwr(void* arg) {
  if (arg == nullptr) return -EFAULT;
  const auto& r = *static_cast<const i2c_rdwr_ioctl_data*>(arg);
  if (r.nmsgs > I2C_RDWR_IOCTL_MAX_MSGS || r.msgs == nullptr) return -EINVAL;
  for (unsigned i = 0; i < r.nmsgs; ++i) {
    if (r.msgs[i].len > kMaxMessageBytes) return -EINVAL;
    if (r.msgs[i].flags & I2C_M_RECV_LEN) return -EOPNOTSUPP;
  }
  if (const int done = transfer(r.msgs, r.nmsgs); done < 0) return done;
  return static_cast<int>(r.nmsgs);
}

int SimI2cBus::transfer(i2c_msg* messages, unsigned count) {
  std::set<I2cTarget*> addressed;
  int result = 0;
  for (unsigned i = 0; i < count && result == 0; ++i) {
    auto& msg = messages[i];
    auto* chip = msg.addr <= 0x7F ? target(static_cast<std::uint8_t>(msg.addr)) : nullptr;
    if (chip == nullptr) {
      result = -EREMOTEIO;  // nobody acknowledged the address
      break;
    }
    addressed.insert(chip);
    if (msg.flags & I2C_M_RD) {
      chip->read({msg.buf, msg.len});
    } else if (!chip->write({msg.buf, msg.len})) {
      result = -EREMOTEIO;
    }
  }
  for (auto* chip : addressed) chip->stop();
  return result;
}

}  // namespace mcpud::hal::sim
