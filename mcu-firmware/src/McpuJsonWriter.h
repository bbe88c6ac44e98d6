// SPDX-License-Identifier: MIT
// Streaming JSON writer: prints as it goes, so a reply never sits in RAM whole.
#pragma once
#include <Arduino.h>
#include <stdint.h>

#include "McpuText.h"

namespace mcpu {

// Writes one JSON value to a Print, inserting commas itself. Nesting is limited to
// 16 levels (more is a programming error and is ignored). Single-threaded.
class JsonWriter {
 public:
  explicit JsonWriter(Print& out) : out_(out), first_(0), depth_(0), after_key_(false) {}

  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  void endArray() { close(']'); }
  void key(Text k);

  void value(long v);
  void value(unsigned long v);
  void value(int v) { value(static_cast<long>(v)); }
  void value(unsigned int v) { value(static_cast<unsigned long>(v)); }
  void value(unsigned long long v);
  void value(long long v);
  void value(bool v);
  void value(double v, uint8_t digits);
  // scaled / 10^decimals as a decimal number, without floating point ("1.652").
  void valueFixed(long long scaled, uint8_t decimals);
  void value(Text s);
  void value(const __FlashStringHelper* s) { value(Text(s)); }
  void value(const char* s) { value(Text(s)); }
  void valueRaw(const char* s, size_t n);  // already-JSON text, copied as is
  void valueNull();
  // A JSON string from n raw bytes (escaped as needed).
  void valueString(const char* s, size_t n);

  // key + value in one call.
  template <class T>
  void member(Text k, T v) {
    key(k);
    value(v);
  }

  // A string value written in pieces: beginString, any number of parts, endString.
  void beginString() {
    separate();
    raw('"');
  }
  void stringPart(Text t);
  void stringPart(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i) escaped(s[i]);
  }
  void endString() { raw('"'); }

  void raw(char c) { out_.write(static_cast<uint8_t>(c)); }
  void rawText(Text t);

 private:
  void separate();
  void open(char c);
  void close(char c);
  void escaped(char c);
  void digits(unsigned long long v);

  Print& out_;
  uint16_t first_;  // bit d set: the container at depth d has no member yet
  uint8_t depth_;
  bool after_key_;
};

}  // namespace mcpu
