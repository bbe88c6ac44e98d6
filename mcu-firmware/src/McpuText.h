// SPDX-License-Identifier: MIT
// A string that lives either in RAM or in flash (F("...") on AVR), read one byte at a time.
#pragma once
#include <Arduino.h>

namespace mcpu {

class Text {
 public:
  Text() : p_(nullptr), flash_(false) {}
  Text(const char* ram) : p_(ram), flash_(false) {}  // NOLINT: implicit on purpose
  Text(const __FlashStringHelper* flash)             // NOLINT: implicit on purpose
      : p_(reinterpret_cast<const char*>(flash)), flash_(true) {}

  bool empty() const { return p_ == nullptr || at(0) == '\0'; }
  char at(size_t i) const {
    if (!p_) return '\0';
    return flash_ ? static_cast<char>(pgm_read_byte(p_ + i)) : p_[i];
  }
  size_t length() const {
    size_t n = 0;
    while (p_ && at(n) != '\0') ++n;
    return n;
  }
  bool equals(const Text& other) const {
    for (size_t i = 0;; ++i) {
      const char c = at(i);
      if (c != other.at(i)) return false;
      if (c == '\0') return true;
    }
  }
  // True when the text equals the n bytes at s.
  bool equals(const char* s, size_t n) const {
    if (!p_) return n == 0;
    for (size_t i = 0; i < n; ++i) {
      if (at(i) != s[i]) return false;
    }
    return at(n) == '\0';
  }

 private:
  const char* p_;
  bool flash_;
};

}  // namespace mcpu
