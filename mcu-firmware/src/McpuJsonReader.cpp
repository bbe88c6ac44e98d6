// SPDX-License-Identifier: MIT
// In-place JSON reader: checks a request line once, then finds members by scanning it again.
#include "McpuJsonReader.h"

#include <stdlib.h>  // strtod
#include <string.h>

namespace mcpu {
namespace {

const uint8_t kMaxDepth = 8;

struct Scanner {
  const char* p;
  const char* end;
  JsonError* error;
  const char* start;

  bool fail(const __FlashStringHelper* m) {
    if (error && !error->message) {
      error->message = m;
      error->offset = static_cast<size_t>(p - start);
    }
    return false;
  }
  void ws() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
  }
  bool literal(const char* word) {
    const size_t n = strlen(word);
    if (static_cast<size_t>(end - p) < n || memcmp(p, word, n) != 0) return fail(F("invalid literal"));
    p += n;
    return true;
  }
  static bool digit(char c) { return c >= '0' && c <= '9'; }
  static bool hex(char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

  bool number() {
    if (p < end && *p == '-') ++p;
    if (p >= end || !digit(*p)) return fail(F("invalid number"));
    if (*p == '0') {
      ++p;
    } else {
      while (p < end && digit(*p)) ++p;
    }
    if (p < end && *p == '.') {
      ++p;
      if (p >= end || !digit(*p)) return fail(F("invalid number"));
      while (p < end && digit(*p)) ++p;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
      ++p;
      if (p < end && (*p == '+' || *p == '-')) ++p;
      if (p >= end || !digit(*p)) return fail(F("invalid number"));
      while (p < end && digit(*p)) ++p;
    }
    return true;
  }

  bool string() {
    ++p;  // opening quote
    while (p < end) {
      const char c = *p++;
      if (c == '"') return true;
      if (static_cast<uint8_t>(c) < 0x20) return fail(F("control character in string"));
      if (c != '\\') continue;
      if (p >= end) break;
      const char e = *p++;
      if (e == 'u') {
        for (uint8_t i = 0; i < 4; ++i) {
          if (p >= end || !hex(*p)) return fail(F("invalid \\u escape"));
          ++p;
        }
      } else if (!strchr("\"\\/bfnrt", e)) {
        return fail(F("invalid escape"));
      }
    }
    return fail(F("unterminated string"));
  }

  bool container(char close, uint8_t depth, bool object) {
    if (depth >= kMaxDepth) return fail(F("nested too deeply"));
    ++p;
    ws();
    if (p < end && *p == close) {
      ++p;
      return true;
    }
    for (;;) {
      ws();
      if (object) {
        if (p >= end || *p != '"') return fail(F("expected a string key"));
        if (!string()) return false;
        ws();
        if (p >= end || *p != ':') return fail(F("expected ':'"));
        ++p;
      }
      if (!value(depth + 1)) return false;
      ws();
      if (p < end && *p == ',') {
        ++p;
        continue;
      }
      if (p < end && *p == close) {
        ++p;
        return true;
      }
      return fail(object ? F("expected ',' or '}'") : F("expected ',' or ']'"));
    }
  }

  bool value(uint8_t depth) {
    ws();
    if (p >= end) return fail(F("unexpected end of input"));
    switch (*p) {
      case '{':
        return container('}', depth, true);
      case '[':
        return container(']', depth, false);
      case '"':
        return string();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number();
    }
  }
};

JsonType typeOf(char c) {
  switch (c) {
    case '{':
      return JsonType::Object;
    case '[':
      return JsonType::Array;
    case '"':
      return JsonType::String;
    case 't':
    case 'f':
      return JsonType::Bool;
    case 'n':
      return JsonType::Null;
    default:
      return JsonType::Number;
  }
}

// Reads one decoded character of a string at *p (past the opening quote); returns
// false at the closing quote. Non-ASCII \u escapes decode to '?'.
bool nextChar(const char** p, char* out) {
  const char* s = *p;
  if (*s == '"') return false;
  if (*s != '\\') {
    *out = *s;
    *p = s + 1;
    return true;
  }
  const char e = s[1];
  *p = s + 2;
  switch (e) {
    case 'n':
      *out = '\n';
      break;
    case 't':
      *out = '\t';
      break;
    case 'r':
      *out = '\r';
      break;
    case 'b':
      *out = '\b';
      break;
    case 'f':
      *out = '\f';
      break;
    case 'u': {
      unsigned code = 0;
      for (uint8_t i = 2; i < 6; ++i) {
        const char h = s[i];
        code = code * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      *out = code < 0x80 ? static_cast<char>(code) : '?';
      *p = s + 6;
      break;
    }
    default:
      *out = e;
      break;
  }
  return true;
}

}  // namespace

bool jsonParse(const char* p, size_t n, JsonValue* root, JsonError* error) {
  Scanner s{p, p + n, error, p};
  s.ws();
  const char* first = s.p;
  if (!s.value(0)) return false;
  const char* last = s.p;
  s.ws();
  if (s.p != s.end) return s.fail(F("unexpected data after the JSON value"));
  root->p = first;
  root->n = static_cast<size_t>(last - first);
  root->type = typeOf(*first);
  return true;
}

JsonValue JsonValue::member(Text key) const {
  JsonValue found;
  if (type != JsonType::Object) return found;
  // The text was validated by jsonParse, so the scanner cannot fail here.
  Scanner s{p + 1, p + n, nullptr, p};
  s.ws();
  if (*s.p == '}') return found;
  for (;;) {
    s.ws();
    JsonValue k{s.p, 0, JsonType::String};
    s.string();
    k.n = static_cast<size_t>(s.p - k.p);
    s.ws();
    ++s.p;  // ':'
    s.ws();
    JsonValue v{s.p, 0, typeOf(*s.p)};
    s.value(1);
    v.n = static_cast<size_t>(s.p - v.p);
    if (k.stringEquals(key)) found = v;  // the last duplicate wins, as in most parsers
    s.ws();
    if (*s.p != ',') return found;
    ++s.p;
  }
}

bool JsonValue::toLong(long* out) const {
  if (type != JsonType::Number) return false;
  size_t i = 0;
  const bool negative = p[0] == '-';
  if (negative) ++i;
  unsigned long v = 0;
  const unsigned long limit = negative ? 2147483648UL : 2147483647UL;
  for (; i < n; ++i) {
    const char c = p[i];
    if (c < '0' || c > '9') return false;  // a fraction or an exponent
    const unsigned long d = static_cast<unsigned long>(c - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? static_cast<long>(0 - v) : static_cast<long>(v);
  return true;
}

bool JsonValue::toDouble(double* out) const {
  if (type != JsonType::Number) return false;
  char buf[32];
  if (n >= sizeof(buf)) return false;
  memcpy(buf, p, n);
  buf[n] = '\0';
  *out = strtod(buf, nullptr);
  return true;
}

bool JsonValue::toBool(bool* out) const {
  if (type != JsonType::Bool) return false;
  *out = p[0] == 't';
  return true;
}

bool JsonValue::toString(char* out, size_t cap) const {
  if (type != JsonType::String || cap == 0) return false;
  const char* s = p + 1;
  size_t i = 0;
  char c;
  while (nextChar(&s, &c)) {
    if (i + 1 >= cap) return false;
    out[i++] = c;
  }
  out[i] = '\0';
  return true;
}

bool JsonValue::stringEquals(Text t) const {
  if (type != JsonType::String) return false;
  const char* s = p + 1;
  size_t i = 0;
  char c;
  while (nextChar(&s, &c)) {
    if (t.at(i) != c || c == '\0') return false;
    ++i;
  }
  return t.at(i) == '\0';
}

const __FlashStringHelper* jsonTypeName(const JsonValue& v) {
  long ignored;
  switch (v.type) {
    case JsonType::Null:
      return F("null");
    case JsonType::Bool:
      return F("boolean");
    case JsonType::Number:
      return v.toLong(&ignored) ? F("integer") : F("number");
    case JsonType::String:
      return F("string");
    case JsonType::Array:
      return F("array");
    case JsonType::Object:
      return F("object");
    default:
      return F("nothing");
  }
}

}  // namespace mcpu
