// SPDX-License-Identifier: MIT
// In-place JSON reader: checks a request line once, then finds members by scanning it again.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "McpuText.h"

namespace mcpu {

enum class JsonType : uint8_t { None, Null, Bool, Number, String, Array, Object };

// A view of one JSON value inside the request line (no copy is made).
struct JsonValue {
  const char* p = nullptr;  // first byte of the value (for strings: the opening quote)
  size_t n = 0;             // length in bytes
  JsonType type = JsonType::None;

  JsonValue() {}
  JsonValue(const char* start, size_t length, JsonType t) : p(start), n(length), type(t) {}

  bool present() const { return type != JsonType::None; }
  // Integer values only (no fraction or exponent) that fit a long.
  bool toLong(long* out) const;
  bool toDouble(double* out) const;
  bool toBool(bool* out) const;
  // Decodes a string into out (NUL-terminated); false when not a string or too long.
  bool toString(char* out, size_t cap) const;
  // True when this is a string equal to t (escapes are compared decoded).
  bool stringEquals(Text t) const;
  // Member of an object by key; an absent member has type None.
  JsonValue member(Text key) const;
};

// Why a line is not JSON: a message in flash and the byte offset where it went wrong.
struct JsonError {
  const __FlashStringHelper* message = nullptr;
  size_t offset = 0;
};

// Checks that [p, p+n) holds exactly one JSON value (with at most kMaxDepth nesting)
// and describes it in *root. Returns false and fills *error when it does not.
bool jsonParse(const char* p, size_t n, JsonValue* root, JsonError* error);

// Name of a JSON type for error messages ("integer" for whole numbers).
const __FlashStringHelper* jsonTypeName(const JsonValue& v);

}  // namespace mcpu
