// SPDX-License-Identifier: MIT
// i2c-dev's ioctls: I2C_FUNCS, I2C_SLAVE(_FORCE), I2C_SMBUS and I2C_RDWR.
#include "i2c_adapter.hpp"

#include <linux/i2c-dev.h>
#include <linux/i2c.h>

#include <cerrno>
#include <cstring>

#include "mcpud/buses/bus_config.hpp"

namespace mcpud::buses {
namespace {

std::string reg_text(std::uint8_t reg) { return "register " + hex_address(reg); }

// A block's bytes: the count first, at most 32 (the kernel checks it; a fake device might not).
Bytes block_bytes(const i2c_smbus_data& data) {
  const std::size_t count = std::min<std::size_t>(data.block[0], kSmbusBlockMax);
  return Bytes(data.block + 1, data.block + 1 + count);
}

// `bytes` as a block to write: the count first, then at most 32 bytes.
i2c_smbus_data block_data(const Bytes& bytes) {
  i2c_smbus_data data{};
  data.block[0] = static_cast<__u8>(std::min(bytes.size(), kSmbusBlockMax));
  std::memcpy(data.block + 1, bytes.data(), data.block[0]);
  return data;
}

Error open_error(int error, const std::string& path, unsigned bus) {
  return device_open_error(
      error, path,
      "enable I2C bus " + std::to_string(bus) +
          " (Raspberry Pi: dtparam=i2c_arm=on in /boot/firmware/config.txt for bus 1, or dtoverlay=i2cN for "
          "others) and load the i2c-dev module (modprobe i2c-dev; list it in /etc/modules-load.d/)",
      "i2c", "/dev/i2c-*");
}

}  // namespace

Error transfer_error(int error, bool writing, const std::string& what) {
  if (error == ETIMEDOUT) return Error::domain(DomainError::Timeout, what + ": the bus timed out");
  if (error == ESHUTDOWN) {
    return Error::domain(DomainError::DeviceDisconnected, what + ": the I2C adapter is gone");
  }
  const auto kind = writing ? DomainError::WriteError : DomainError::ReadError;
  // ENODEV: what i2c-stub and some adapters answer for an address nobody is at.
  if (error == ENXIO || error == EREMOTEIO || error == EIO || error == ENODEV) {
    return Error::domain(kind, what + ": no answer (the device did not acknowledge; is it there, at that address?)");
  }
  if (error == EOPNOTSUPP || error == ENOTTY) {
    return Error::domain(kind, what + ": the I2C adapter cannot do this transaction");
  }
  if (error == EPROTO || error == EBADMSG) {
    return Error::domain(kind, what + ": the device answered with a malformed block");
  }
  return Error::domain(kind, what + ": " + std::strerror(error));
}

Result<I2cAdapter> I2cAdapter::open(hal::DeviceNodes& nodes, const std::string& dev_root, unsigned bus) {
  const std::string path = dev_root + "/i2c-" + std::to_string(bus);
  const int fd = nodes.open(path);
  if (fd < 0) return std::unexpected(open_error(-fd, path, bus));
  auto device = std::make_unique<DeviceFd>(nodes, fd);
  unsigned long functionality = 0;
  if (const int got = device->ioctl(I2C_FUNCS, &functionality); got < 0) {
    return std::unexpected(Error::domain(DomainError::OpenError,
                                         path + " is not an i2c-dev device (I2C_FUNCS: " + std::strerror(-got) + ")"));
  }
  return I2cAdapter(std::move(device), bus, functionality);
}

std::string I2cAdapter::where() const { return hex_address(address_) + " on I2C bus " + std::to_string(bus_); }

Result<void> I2cAdapter::select(std::uint8_t address, bool force) {
  address_ = address;
  const int got = fd_->ioctl(force ? I2C_SLAVE_FORCE : I2C_SLAVE, reinterpret_cast<void*>(std::uintptr_t{address}));
  if (got >= 0) return {};
  if (-got == EBUSY) {
    return std::unexpected(Error::domain(DomainError::Busy, where() + " is in use by a kernel driver"));
  }
  return std::unexpected(transfer_error(-got, false, "selecting " + where()));
}

Result<void> I2cAdapter::require(unsigned long bit, const char* what, bool writing) const {
  if (functionality_ & bit) return {};
  return std::unexpected(Error::domain(writing ? DomainError::WriteError : DomainError::ReadError,
                                       "the adapter of I2C bus " + std::to_string(bus_) + " cannot do " + what));
}

// What an SMBus transaction needs of the adapter, its name in errors, its
// direction and its size (I2C_SMBUS_*).
struct I2cAdapter::SmbusKind {
  unsigned long needs;
  const char* name;
  bool read;
  int size;
};

Result<void> I2cAdapter::smbus(const SmbusKind& kind, std::uint8_t command, void* data, const std::string& what) {
  if (auto ok = require(kind.needs, kind.name, !kind.read); !ok) return ok;
  i2c_smbus_ioctl_data request{static_cast<__u8>(kind.read ? I2C_SMBUS_READ : I2C_SMBUS_WRITE), command,
                               static_cast<__u32>(kind.size), static_cast<i2c_smbus_data*>(data)};
  if (const int got = fd_->ioctl(I2C_SMBUS, &request); got < 0) {
    return std::unexpected(transfer_error(-got, !kind.read, what + " of " + where()));
  }
  return {};
}

Result<i2c_smbus_data> I2cAdapter::smbus_read(const SmbusKind& kind, std::uint8_t command, const std::string& what,
                                              i2c_smbus_data data) {
  if (auto ok = smbus(kind, command, &data, what); !ok) return std::unexpected(ok.error());
  return data;
}

Result<std::uint8_t> I2cAdapter::receive_byte() {
  auto data =
      smbus_read({I2C_FUNC_SMBUS_READ_BYTE, "SMBus receive byte", true, I2C_SMBUS_BYTE}, 0, "receiving a byte", {});
  if (!data) return std::unexpected(data.error());
  return data->byte;
}

Result<std::uint8_t> I2cAdapter::read_byte(std::uint8_t reg) {
  auto data = smbus_read({I2C_FUNC_SMBUS_READ_BYTE_DATA, "SMBus read byte", true, I2C_SMBUS_BYTE_DATA}, reg,
                         "reading " + reg_text(reg), {});
  if (!data) return std::unexpected(data.error());
  return data->byte;
}

Result<std::uint16_t> I2cAdapter::read_word(std::uint8_t reg) {
  auto data = smbus_read({I2C_FUNC_SMBUS_READ_WORD_DATA, "SMBus read word", true, I2C_SMBUS_WORD_DATA}, reg,
                         "reading a word at " + reg_text(reg), {});
  if (!data) return std::unexpected(data.error());
  return data->word;
}

Result<Bytes> I2cAdapter::read_block(std::uint8_t reg) {
  auto data = smbus_read({I2C_FUNC_SMBUS_READ_BLOCK_DATA, "SMBus block read", true, I2C_SMBUS_BLOCK_DATA}, reg,
                         "reading a block at " + reg_text(reg), {});
  if (!data) return std::unexpected(data.error());
  return block_bytes(*data);
}

Result<Bytes> I2cAdapter::read_i2c_block(std::uint8_t reg, std::size_t length) {
  i2c_smbus_data wanted{};
  wanted.block[0] = static_cast<__u8>(std::min(length, kSmbusBlockMax));
  auto data = smbus_read({I2C_FUNC_SMBUS_READ_I2C_BLOCK, "I2C block read", true, I2C_SMBUS_I2C_BLOCK_DATA}, reg,
                         "reading a block at " + reg_text(reg), wanted);
  if (!data) return std::unexpected(data.error());
  return block_bytes(*data);
}

Result<void> I2cAdapter::send_byte(std::uint8_t value) {
  return smbus({I2C_FUNC_SMBUS_WRITE_BYTE, "SMBus send byte", false, I2C_SMBUS_BYTE}, value, nullptr, "sending a byte");
}

Result<void> I2cAdapter::write_byte(std::uint8_t reg, std::uint8_t value) {
  i2c_smbus_data data{};
  data.byte = value;
  return smbus({I2C_FUNC_SMBUS_WRITE_BYTE_DATA, "SMBus write byte", false, I2C_SMBUS_BYTE_DATA}, reg, &data,
               "writing " + reg_text(reg));
}

Result<void> I2cAdapter::write_word(std::uint8_t reg, std::uint16_t value) {
  i2c_smbus_data data{};
  data.word = value;
  return smbus({I2C_FUNC_SMBUS_WRITE_WORD_DATA, "SMBus write word", false, I2C_SMBUS_WORD_DATA}, reg, &data,
               "writing a word at " + reg_text(reg));
}

Result<void> I2cAdapter::write_block(std::uint8_t reg, const Bytes& bytes) {
  auto data = block_data(bytes);
  return smbus({I2C_FUNC_SMBUS_WRITE_BLOCK_DATA, "SMBus block write", false, I2C_SMBUS_BLOCK_DATA}, reg, &data,
               "writing a block at " + reg_text(reg));
}

Result<void> I2cAdapter::write_i2c_block(std::uint8_t reg, const Bytes& bytes) {
  auto data = block_data(bytes);
  return smbus({I2C_FUNC_SMBUS_WRITE_I2C_BLOCK, "I2C block write", false, I2C_SMBUS_I2C_BLOCK_DATA}, reg, &data,
               "writing a block at " + reg_text(reg));
}

Result<Bytes> I2cAdapter::transfer(const Bytes& write, std::size_t read_length) {
  const bool writing = !write.empty();
  if (auto ok = require(I2C_FUNC_I2C, "plain I2C transfers (only SMBus)", writing); !ok) {
    return std::unexpected(ok.error());
  }
  Bytes out(std::min(read_length, kI2cMessageMax));
  Bytes in(write.begin(), write.begin() + static_cast<std::ptrdiff_t>(std::min(write.size(), kI2cMessageMax)));
  i2c_msg messages[2];
  __u32 count = 0;
  if (!in.empty()) messages[count++] = {address_, 0, static_cast<__u16>(in.size()), in.data()};
  if (!out.empty()) messages[count++] = {address_, I2C_M_RD, static_cast<__u16>(out.size()), out.data()};
  if (count == 0) return out;
  i2c_rdwr_ioctl_data request{messages, count};
  if (const int got = fd_->ioctl(I2C_RDWR, &request); got < 0) {
    return std::unexpected(transfer_error(-got, writing, "an I2C transfer with " + where()));
  }
  return out;
}

Result<bool> I2cAdapter::probe() {
  const bool read_byte_range = (address_ >= 0x30 && address_ <= 0x37) || (address_ >= 0x50 && address_ <= 0x5F);
  const bool quick = (functionality_ & I2C_FUNC_SMBUS_QUICK) != 0;
  i2c_smbus_data data{};
  i2c_smbus_ioctl_data request{I2C_SMBUS_WRITE, 0, I2C_SMBUS_QUICK, nullptr};
  if (read_byte_range || !quick) request = {I2C_SMBUS_READ, 0, I2C_SMBUS_BYTE, &data};
  const int got = fd_->ioctl(I2C_SMBUS, &request);
  if (got >= 0) return true;
  // A bus that times out would do so for every address: one timeout ends the scan.
  if (-got == ETIMEDOUT || -got == ESHUTDOWN) {
    return std::unexpected(transfer_error(-got, false, "probing " + where()));
  }
  return false;
}

}  // namespace mcpud::buses
