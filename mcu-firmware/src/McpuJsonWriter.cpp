// SPDX-License-Identifier: MIT
// Streaming JSON writer: prints as it goes, so a reply never sits in RAM whole.
#include "McpuJsonWriter.h"

namespace mcpu {

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ == 0) return;
  const uint16_t bit = static_cast<uint16_t>(1u << (depth_ - 1));
  if (first_ & bit) {
    first_ &= static_cast<uint16_t>(~bit);
  } else {
    raw(',');
  }
}

void JsonWriter::open(char c) {
  separate();
  raw(c);
  if (depth_ < 16) {
    first_ |= static_cast<uint16_t>(1u << depth_);
    ++depth_;
  }
}

void JsonWriter::close(char c) {
  if (depth_ > 0) --depth_;
  after_key_ = false;
  raw(c);
}

void JsonWriter::key(Text k) {
  separate();
  raw('"');
  stringPart(k);
  raw('"');
  raw(':');
  after_key_ = true;
}

void JsonWriter::digits(unsigned long long v) {
  char buf[21];
  uint8_t n = 0;
  do {
    buf[n++] = static_cast<char>('0' + static_cast<uint8_t>(v % 10));
    v /= 10;
  } while (v != 0);
  while (n > 0) raw(buf[--n]);
}

void JsonWriter::value(long v) {
  separate();
  if (v < 0) {
    raw('-');
    digits(static_cast<unsigned long long>(-(v + 1)) + 1);
  } else {
    digits(static_cast<unsigned long long>(v));
  }
}

void JsonWriter::value(unsigned long v) {
  separate();
  // 32-bit division keeps AVR code small for the common case.
  char buf[11];
  uint8_t n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) raw(buf[--n]);
}

void JsonWriter::value(unsigned long long v) {
  separate();
  digits(v);
}

void JsonWriter::value(long long v) {
  separate();
  if (v < 0) {
    raw('-');
    digits(static_cast<unsigned long long>(-(v + 1)) + 1);
  } else {
    digits(static_cast<unsigned long long>(v));
  }
}

void JsonWriter::value(bool v) {
  separate();
  rawText(v ? F("true") : F("false"));
}

void JsonWriter::valueNull() {
  separate();
  rawText(F("null"));
}

void JsonWriter::value(double v, uint8_t digitsAfter) {
  if (v != v || v > 2e9 || v < -2e9) {  // NaN or out of the printable range
    valueNull();
    return;
  }
  separate();
  if (v < 0) {
    raw('-');
    v = -v;
  }
  unsigned long scale = 1;
  for (uint8_t i = 0; i < digitsAfter; ++i) scale *= 10;
  double scaled = v * static_cast<double>(scale) + 0.5;
  unsigned long whole = static_cast<unsigned long>(v);
  unsigned long frac = static_cast<unsigned long>(scaled - static_cast<double>(whole) * static_cast<double>(scale));
  if (frac >= scale) {
    whole += 1;
    frac -= scale;
  }
  digits(whole);
  if (digitsAfter == 0 || frac == 0) return;
  raw('.');
  char buf[10];
  for (uint8_t i = 0; i < digitsAfter; ++i) {
    buf[digitsAfter - 1 - i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  uint8_t n = digitsAfter;
  while (n > 1 && buf[n - 1] == '0') --n;  // no trailing zeros
  for (uint8_t i = 0; i < n; ++i) raw(buf[i]);
}

void JsonWriter::valueFixed(long long scaled, uint8_t decimals) {
  separate();
  unsigned long long u = scaled < 0 ? 0ULL - static_cast<unsigned long long>(scaled) : scaled;
  if (scaled < 0) raw('-');
  unsigned long long scale = 1;
  for (uint8_t i = 0; i < decimals; ++i) scale *= 10;
  digits(u / scale);
  unsigned long long frac = u % scale;
  if (frac == 0) return;
  raw('.');
  while (scale > 1 && frac != 0) {  // digits of the fraction, without trailing zeros
    scale /= 10;
    raw(static_cast<char>('0' + frac / scale));
    frac %= scale;
  }
}

void JsonWriter::escaped(char c) {
  static const char kHex[] PROGMEM = "0123456789abcdef";
  static const char kSpecial[] PROGMEM = "\"\\\n\r\t";  // written as a backslash and the letter below
  static const char kLetter[] PROGMEM = "\"\\nrt";
  for (uint8_t i = 0; i < sizeof(kSpecial) - 1; ++i) {
    if (c != static_cast<char>(pgm_read_byte(&kSpecial[i]))) continue;
    raw('\\');
    raw(static_cast<char>(pgm_read_byte(&kLetter[i])));
    return;
  }
  const uint8_t u = static_cast<uint8_t>(c);
  if (u < 0x20) {
    rawText(F("\\u00"));
    raw(static_cast<char>(pgm_read_byte(&kHex[u >> 4])));
    raw(static_cast<char>(pgm_read_byte(&kHex[u & 15])));
  } else {
    raw(c);
  }
}

void JsonWriter::value(Text s) {
  beginString();
  stringPart(s);
  endString();
}

void JsonWriter::stringPart(Text t) {
  for (size_t i = 0;; ++i) {
    const char c = t.at(i);
    if (c == '\0') break;
    escaped(c);
  }
}

void JsonWriter::valueString(const char* s, size_t n) {
  beginString();
  stringPart(s, n);
  endString();
}

void JsonWriter::valueRaw(const char* s, size_t n) {
  separate();
  out_.write(reinterpret_cast<const uint8_t*>(s), n);
}

void JsonWriter::rawText(Text t) {
  for (size_t i = 0;; ++i) {
    const char c = t.at(i);
    if (c == '\0') break;
    raw(c);
  }
}

}  // namespace mcpu
