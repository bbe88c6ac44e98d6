// SPDX-License-Identifier: MIT
// A fixed-capacity ring of bytes that keeps the newest data and counts what it
// had to drop, so an overflow is reported rather than silent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpud::serial {

// Not thread-safe; owned by one serial session on the event loop.
class ByteRing {
 public:
  explicit ByteRing(std::size_t capacity);

  // Appends `bytes`. When they do not fit, the oldest bytes are dropped and
  // added to lost(); the newest `capacity()` bytes are always kept.
  void push(std::string_view bytes);
  // A copy of the oldest min(n, size()) bytes, left in the ring.
  std::string peek(std::size_t n) const;
  // Removes the oldest min(n, size()) bytes.
  void drop(std::size_t n);
  std::string take(std::size_t n);
  // Empties the ring; returns how many bytes were discarded (not counted as lost).
  std::size_t clear();

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return data_.size(); }
  bool empty() const { return size_ == 0; }
  // Bytes dropped by overflow since the ring was made.
  std::uint64_t lost() const { return lost_; }

 private:
  std::vector<char> data_;
  std::size_t head_ = 0;  // index of the oldest byte
  std::size_t size_ = 0;
  std::uint64_t lost_ = 0;
};

}  // namespace mcpud::serial
