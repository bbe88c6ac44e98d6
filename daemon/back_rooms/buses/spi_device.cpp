// SPDX-License-Identifier: MIT
// spidev's ioctls: SPI_IOC_WR_MODE, SPI_IOC_WR_BITS_PER_WORD,
// SPI_IOC_WR_MAX_SPEED_HZ and SPI_IOC_MESSAGE(1).
#include "spi_device.hpp"

#include <linux/spi/spidev.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace mcpud::buses {
namespace {

Error open_error(int error, const std::string& path) {
  return device_open_error(error, path,
                           "enable SPI (Raspberry Pi: dtparam=spi=on in /boot/firmware/config.txt gives spidev0.0 and "
                           "spidev0.1; dtoverlay=spi1-1cs and the like add other buses) and check that spidev is "
                           "bound to the chip select",
                           "spi", "/dev/spidev*");
}

// Sets one setting; the controller may refuse what it cannot do.
template <class T>
Result<void> set(const DeviceFd& fd, unsigned long request, T value, const std::string& path, const std::string& what) {
  const int got = fd.ioctl(request, &value);
  if (got >= 0) return {};
  if (-got == ENOTTY) {
    return std::unexpected(Error::domain(DomainError::OpenError, path + " is not a spidev device"));
  }
  return std::unexpected(Error::domain(DomainError::InvalidArgument,
                                       path + ": the controller refuses " + what + " (" + std::strerror(-got) + ")"));
}

}  // namespace

std::string spi_device_name(unsigned bus, unsigned chip_select) {
  return "spidev" + std::to_string(bus) + "." + std::to_string(chip_select);
}

std::size_t spi_word_bytes(unsigned bits_per_word) { return bits_per_word <= 8 ? 1 : bits_per_word <= 16 ? 2 : 4; }

Result<std::vector<std::uint8_t>> spi_transfer(hal::DeviceNodes& nodes, const std::string& dev_root,
                                               const SpiTransfer& t) {
  const std::string path = dev_root + "/" + spi_device_name(t.bus, t.chip_select);
  const int fd_number = nodes.open(path);
  if (fd_number < 0) return std::unexpected(open_error(-fd_number, path));
  const DeviceFd fd(nodes, fd_number);
  if (auto ok = set<std::uint8_t>(fd, SPI_IOC_WR_MODE, t.mode, path, "mode " + std::to_string(t.mode)); !ok) {
    return std::unexpected(ok.error());
  }
  if (auto ok = set<std::uint8_t>(fd, SPI_IOC_WR_BITS_PER_WORD, t.bits_per_word, path,
                                  std::to_string(t.bits_per_word) + " bits per word");
      !ok) {
    return std::unexpected(ok.error());
  }
  if (auto ok = set<std::uint32_t>(fd, SPI_IOC_WR_MAX_SPEED_HZ, t.speed_hz, path, std::to_string(t.speed_hz) + " Hz");
      !ok) {
    return std::unexpected(ok.error());
  }
  std::vector<std::uint8_t> rx(t.tx.size());
  spi_ioc_transfer message{};
  message.tx_buf = reinterpret_cast<std::uintptr_t>(t.tx.data());
  message.rx_buf = reinterpret_cast<std::uintptr_t>(rx.data());
  message.len = static_cast<__u32>(t.tx.size());
  message.speed_hz = t.speed_hz;
  message.bits_per_word = t.bits_per_word;
  if (const int got = fd.ioctl(SPI_IOC_MESSAGE(1), &message); got < 0) {
    const auto kind = -got == ENODEV || -got == ESHUTDOWN ? DomainError::DeviceDisconnected : DomainError::WriteError;
    return std::unexpected(Error::domain(kind, path + ": the transfer failed: " + std::strerror(-got)));
  }
  return rx;
}

}  // namespace mcpud::buses
