// SPDX-License-Identifier: MIT
// The 24C32's address pointer, sequential reads and page writes.
#include "eeprom_24c32.hpp"

namespace mcpud::hal::sim {

bool Sim24c32::write(std::span<const std::uint8_t> bytes) {
  // The pointer changes only once both address bytes are in: one byte alone
  // (an SMBus "register") leaves it where it was.
  if (bytes.size() < 2) return true;
  pointer_ = static_cast<std::uint16_t>(((bytes[0] & 0x0F) << 8) | bytes[1]);
  const std::uint16_t page = pointer_ & ~static_cast<std::uint16_t>(kPageBytes - 1);
  std::size_t offset = pointer_ % kPageBytes;
  for (std::size_t i = 2; i < bytes.size(); ++i) {
    pending_.emplace_back(static_cast<std::uint16_t>(page + offset), bytes[i]);
    offset = (offset + 1) % kPageBytes;  // a page write wraps within its page
  }
  if (bytes.size() > 2) pointer_ = static_cast<std::uint16_t>(page + offset);
  return true;
}

void Sim24c32::read(std::span<std::uint8_t> out) {
  for (auto& byte : out) {
    byte = memory_[pointer_];
    pointer_ = static_cast<std::uint16_t>((pointer_ + 1) % kBytes);
  }
}

void Sim24c32::stop() {
  for (const auto& [address, value] : pending_) memory_[address] = value;
  pending_.clear();
}

}  // namespace mcpud::hal::sim
