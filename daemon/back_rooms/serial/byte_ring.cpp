// SPDX-License-Identifier: MIT
// ByteRing: overwrite-oldest ring with a lost-byte counter.
#include "mcpud/serial/byte_ring.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace mcpud::serial {

ByteRing::ByteRing(std::size_t capacity) : data_(capacity) {
  if (capacity == 0) throw std::invalid_argument("ByteRing capacity must be positive");
}

void ByteRing::push(std::string_view bytes) {
  const std::size_t cap = data_.size();
  if (bytes.size() >= cap) {
    // Only the newest `cap` bytes can stay; everything older is lost.
    lost_ += size_ + (bytes.size() - cap);
    bytes.remove_prefix(bytes.size() - cap);
    std::memcpy(data_.data(), bytes.data(), cap);
    head_ = 0;
    size_ = cap;
    return;
  }
  const std::size_t overflow = size_ + bytes.size() > cap ? size_ + bytes.size() - cap : 0;
  drop(overflow);
  lost_ += overflow;
  std::size_t tail = (head_ + size_) % cap;
  const std::size_t first = std::min(bytes.size(), cap - tail);
  std::memcpy(data_.data() + tail, bytes.data(), first);
  std::memcpy(data_.data(), bytes.data() + first, bytes.size() - first);
  size_ += bytes.size();
}

std::string ByteRing::peek(std::size_t n) const {
  n = std::min(n, size_);
  std::string out(n, '\0');
  const std::size_t first = std::min(n, data_.size() - head_);
  std::memcpy(out.data(), data_.data() + head_, first);
  std::memcpy(out.data() + first, data_.data(), n - first);
  return out;
}

void ByteRing::drop(std::size_t n) {
  n = std::min(n, size_);
  head_ = (head_ + n) % data_.size();
  size_ -= n;
  if (size_ == 0) head_ = 0;
}

std::string ByteRing::take(std::size_t n) {
  auto out = peek(n);
  drop(out.size());
  return out;
}

std::size_t ByteRing::clear() {
  const std::size_t discarded = size_;
  head_ = 0;
  size_ = 0;
  return discarded;
}

}  // namespace mcpud::serial
