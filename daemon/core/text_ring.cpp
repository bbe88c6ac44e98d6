// SPDX-License-Identifier: MIT
// Texts back to back in blocks, the oldest forgotten first.
#include "mcpud/core/text_ring.hpp"

#include <algorithm>

namespace mcpud {

TextRing::TextRing(std::size_t capacity) : capacity_(std::max<std::size_t>(1, capacity)) {}

void TextRing::keep(std::uint64_t seq, std::string_view text) {
  if (blocks_.empty() || blocks_.back().text.size() + text.size() > kBlockBytes) {
    Block block{seq, {}, {}};
    block.text.reserve(std::max(kBlockBytes, text.size()));
    blocks_.push_back(std::move(block));
  }
  auto& block = blocks_.back();
  block.text += text;
  block.ends.push_back(static_cast<std::uint32_t>(block.text.size()));
  ++size_;
  while (size_ > capacity_) forget_oldest();
}

void TextRing::set_capacity(std::size_t capacity) {
  capacity_ = std::max<std::size_t>(1, capacity);
  while (size_ > capacity_) forget_oldest();
}

std::uint64_t TextRing::oldest(std::uint64_t next) const {
  return blocks_.empty() ? next : blocks_.front().first_seq + blocks_.front().dropped;
}

void TextRing::forget_oldest() {
  auto& oldest = blocks_.front();
  --size_;
  if (++oldest.dropped == oldest.ends.size()) blocks_.pop_front();
}

}  // namespace mcpud
