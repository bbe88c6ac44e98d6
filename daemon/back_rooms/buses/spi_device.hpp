// SPDX-License-Identifier: MIT
// One full-duplex transfer on an SPI device through spidev (/dev/spidevB.C):
// mode, bits per word and speed set, then SPI_IOC_MESSAGE, with errors that
// say what to enable (dtparam=spi=on) or which group is missing (spi).
// Event loop only. A transfer is one ioctl, bounded by its length and speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mcpud/buses/device_fd.hpp"
#include "mcpud/core/error.hpp"

namespace mcpud::buses {

struct SpiTransfer {
  unsigned bus{};
  unsigned chip_select{};
  std::vector<std::uint8_t> tx;  // as many bytes come back
  std::uint8_t mode{};           // 0-3: CPOL and CPHA
  std::uint32_t speed_hz{};
  std::uint8_t bits_per_word{};  // 1-32; words wider than 8 bits take 2 or 4 bytes each
};

// Opens <dev_root>/spidevB.C, sets it up and runs the transfer; the bytes read.
// OPEN_ERROR when missing (naming dtparam=spi=on and the overlays) or not a
// spidev device; NOT_AUTHORIZED when permission is denied (naming the spi
// group); INVALID_ARGUMENT when the controller refuses the mode, word size or
// speed; WRITE_ERROR or DEVICE_DISCONNECTED when the transfer fails.
Result<std::vector<std::uint8_t>> spi_transfer(hal::DeviceNodes& nodes, const std::string& dev_root,
                                               const SpiTransfer& transfer);

// "spidev0.1": the device node's name.
std::string spi_device_name(unsigned bus, unsigned chip_select);

// Bytes one word of `bits_per_word` bits takes in spidev's buffers: 1, 2 or 4.
std::size_t spi_word_bytes(unsigned bits_per_word);

}  // namespace mcpud::buses
