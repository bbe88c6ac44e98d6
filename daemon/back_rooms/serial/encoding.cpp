// SPDX-License-Identifier: MIT
// UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing past
// U+10FFFF), hex and base64.
#include "encoding.hpp"

#include "mcpud/core/enum_names.hpp"

#include <array>
#include <cstdint>

namespace mcpud::serial {
namespace {

constexpr EnumNames<Encoding, 3> kEncodingNames{
    {{Encoding::Utf8, "utf8"}, {Encoding::Hex, "hex"}, {Encoding::Base64, "base64"}}};

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kHexDigits = "0123456789abcdef";
constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

enum class Scan { Valid, Invalid, Incomplete };

struct Sequence {
  Scan scan;
  std::size_t length;  // Valid: bytes of the character; Invalid: 1
};

// The allowed range of the second byte depends on the first (Unicode table 3-7).
Sequence scan_at(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return {Scan::Valid, 1};
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return {Scan::Invalid, 1};
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k >= s.size()) return {Scan::Incomplete, 1};
    const auto b = static_cast<unsigned char>(s[i + k]);
    const unsigned char low = k == 1 ? lo : 0x80, high = k == 1 ? hi : 0xBF;
    if (b < low || b > high) return {Scan::Invalid, 1};
  }
  return {Scan::Valid, length};
}

std::string lossy_utf8(std::string_view bytes, bool* lossy) {
  std::string out;
  out.reserve(bytes.size());
  bool replaced = false;
  for (std::size_t i = 0; i < bytes.size();) {
    const auto seq = scan_at(bytes, i);
    if (seq.scan == Scan::Valid) {
      out.append(bytes.substr(i, seq.length));
      i += seq.length;
    } else {
      out.append(kReplacement);
      replaced = true;
      ++i;
    }
  }
  if (lossy) *lossy = replaced;
  return out;
}

// "invalid WHAT 'C' at offset N". Appended piece by piece: g++ 14 reports a false
// -Warray-bounds on a chain of operator+ over temporary strings here.
std::string invalid_at(std::string_view what, char c, std::size_t offset) {
  std::string message = "invalid ";
  message.append(what).append(" '").append(1, c).append("' at offset ").append(std::to_string(offset));
  return message;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::expected<std::string, std::string> from_hex(std::string_view text) {
  std::string out;
  int high = -1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (high < 0 && (c == ' ' || c == ':' || c == '-' || c == '\n' || c == '\t')) continue;
    const int v = hex_value(c);
    if (v < 0) return std::unexpected(invalid_at("hex digit", c, i));
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<char>(high << 4 | v));
      high = -1;
    }
  }
  if (high >= 0) return std::unexpected("odd number of hex digits");
  return out;
}

std::expected<std::string, std::string> from_base64(std::string_view text) {
  std::array<int, 256> value{};
  value.fill(-1);
  for (std::size_t i = 0; i < kBase64.size(); ++i) value[static_cast<unsigned char>(kBase64[i])] = static_cast<int>(i);
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  std::size_t padding = 0;
  std::size_t symbols = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' || c == '\r' || c == ' ') continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    const int v = value[static_cast<unsigned char>(c)];
    if (v < 0 || padding > 0) {
      return std::unexpected(invalid_at("base64 character", c, i));
    }
    ++symbols;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (symbols % 4 == 1 || padding > 2 || (padding > 0 && (symbols + padding) % 4 != 0)) {
    return std::unexpected("truncated base64 (length is not a whole number of 4-character groups)");
  }
  return out;
}

}  // namespace

std::optional<Encoding> parse_encoding(std::string_view name) {
  if (name == "utf-8") return Encoding::Utf8;  // accepted as spelled by many
  return value_named(kEncodingNames, name);
}

std::string_view encoding_name(Encoding encoding) { return name_of(kEncodingNames, encoding, "utf8"); }

bool valid_utf8(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const auto seq = scan_at(bytes, i);
    if (seq.scan != Scan::Valid) return false;
    i += seq.length;
  }
  return true;
}

std::size_t incomplete_utf8_tail(std::string_view bytes) {
  // A sequence is at most 4 bytes, so only the last 3 can start an unfinished one.
  const std::size_t from = bytes.size() > 3 ? bytes.size() - 3 : 0;
  for (std::size_t i = from; i < bytes.size(); ++i) {
    if (scan_at(bytes, i).scan == Scan::Incomplete) return bytes.size() - i;
  }
  return 0;
}

std::string to_hex(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kHexDigits[b >> 4]);
    out.push_back(kHexDigits[b & 0x0F]);
  }
  return out;
}

std::string to_base64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8 |
                            static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out.push_back(kBase64[(n >> shift) & 0x3F]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out.push_back(kBase64[(n >> 18) & 0x3F]);
    out.push_back(kBase64[(n >> 12) & 0x3F]);
    out.push_back(rest == 2 ? kBase64[(n >> 6) & 0x3F] : '=');
    out.push_back('=');
  }
  return out;
}

std::string encode(std::string_view bytes, Encoding encoding, bool* lossy) {
  if (lossy) *lossy = false;
  switch (encoding) {
    case Encoding::Hex:
      return to_hex(bytes);
    case Encoding::Base64:
      return to_base64(bytes);
    case Encoding::Utf8:
      break;
  }
  if (valid_utf8(bytes)) return std::string(bytes);
  return lossy_utf8(bytes, lossy);
}

std::expected<std::string, std::string> decode(std::string_view text, Encoding encoding) {
  switch (encoding) {
    case Encoding::Hex:
      return from_hex(text);
    case Encoding::Base64:
      return from_base64(text);
    case Encoding::Utf8:
      break;
  }
  return std::string(text);
}

}  // namespace mcpud::serial
