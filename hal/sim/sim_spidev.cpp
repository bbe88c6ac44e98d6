// SPDX-License-Identifier: MIT
// spidev's ioctls on a simulated chip select.
#include "sim_spidev.hpp"

#include <linux/spi/spidev.h>

#include <cerrno>
#include <vector>

namespace mcpud::hal::sim {
namespace {

constexpr std::uint32_t kModeMask = SPI_CPHA | SPI_CPOL | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_3WIRE | SPI_LOOP |
                                    SPI_NO_CS | SPI_READY | SPI_TX_DUAL | SPI_TX_QUAD | SPI_RX_DUAL | SPI_RX_QUAD;

// Whether `request` is SPI_IOC_MESSAGE(N) for some N, and that N.
bool is_message(unsigned long request, unsigned& count) {
  if (_IOC_TYPE(request) != SPI_IOC_MAGIC || _IOC_NR(request) != 0 || _IOC_DIR(request) != _IOC_WRITE) return false;
  const auto size = _IOC_SIZE(request);
  if (size % sizeof(spi_ioc_transfer) != 0) return false;
  count = static_cast<unsigned>(size / sizeof(spi_ioc_transfer));
  return true;
}

template <class T>
int put(void* arg, T value) {
  *static_cast<T*>(arg) = value;
  return 0;
}

}  // namespace

int SimSpidev::ioctl(unsigned long request, void* arg) {
  if (arg == nullptr) return -EFAULT;
  switch (request) {
    case SPI_IOC_RD_MODE:
      return put<std::uint8_t>(arg, static_cast<std::uint8_t>(mode_));
    case SPI_IOC_RD_MODE32:
      return put<std::uint32_t>(arg, mode_);
    case SPI_IOC_RD_LSB_FIRST:
      return put<std::uint8_t>(arg, lsb_first_);
    case SPI_IOC_RD_BITS_PER_WORD:
      return put<std::uint8_t>(arg, bits_per_word_);
    case SPI_IOC_RD_MAX_SPEED_HZ:
      return put<std::uint32_t>(arg, max_speed_hz_);
    case SPI_IOC_WR_MODE:
    case SPI_IOC_WR_MODE32: {
      const std::uint32_t mode =
          request == SPI_IOC_WR_MODE ? *static_cast<std::uint8_t*>(arg) : *static_cast<std::uint32_t*>(arg);
      if (mode & ~kModeMask) return -EINVAL;
      mode_ = mode;
      return 0;
    }
    case SPI_IOC_WR_LSB_FIRST:
      lsb_first_ = *static_cast<std::uint8_t*>(arg) ? 1 : 0;
      return 0;
    case SPI_IOC_WR_BITS_PER_WORD: {
      const auto bits = *static_cast<std::uint8_t*>(arg);
      if (bits != 0 && bits != 8) return -EINVAL;  // spi-bcm2835 moves 8-bit words only
      bits_per_word_ = 8;
      return 0;
    }
    case SPI_IOC_WR_MAX_SPEED_HZ: {
      const auto speed = *static_cast<std::uint32_t*>(arg);
      if (speed == 0) return -EINVAL;
      max_speed_hz_ = speed;
      return 0;
    }
    default:
      return message(request, arg);
  }
}

int SimSpidev::message(unsigned long request, void* arg) {
  unsigned count = 0;
  if (!is_message(request, count)) return -ENOTTY;
  const auto* transfers = static_cast<const spi_ioc_transfer*>(arg);
  std::uint64_t total = 0;
  for (unsigned i = 0; i < count; ++i) {
    const auto& t = transfers[i];
    total += t.len;
    if (total > kBufferBytes) return -EMSGSIZE;
    if (t.bits_per_word != 0 && t.bits_per_word != 8) return -EINVAL;
  }
  chip_->select();
  for (unsigned i = 0; i < count; ++i) {
    const auto& t = transfers[i];
    std::vector<std::uint8_t> tx(t.len, 0), rx(t.len, 0);  // no tx_buf: zeros are sent
    if (t.tx_buf) {
      const auto* from = reinterpret_cast<const std::uint8_t*>(static_cast<std::uintptr_t>(t.tx_buf));
      tx.assign(from, from + t.len);
    }
    chip_->exchange(tx, rx);
    if (t.rx_buf) {
      auto* to = reinterpret_cast<std::uint8_t*>(static_cast<std::uintptr_t>(t.rx_buf));
      std::copy(rx.begin(), rx.end(), to);
    }
    if (t.cs_change && i + 1 < count) {
      chip_->deselect();
      chip_->select();
    }
  }
  chip_->deselect();
  return static_cast<int>(total);
}

}  // namespace mcpud::hal::sim
