// SPDX-License-Identifier: MIT
// Finding and replacing the characters that hide or rearrange shown text.
#include "mcpud/core/shown_text.hpp"

#include <cstdint>
#include <cstdio>

namespace mcpud {
namespace {

// One UTF-8 character at the start of `text`: its code point and length, or
// length 0 for a byte that does not begin a valid sequence (overlong forms,
// surrogates and values above U+10FFFF are invalid).
struct Decoded {
  char32_t code = 0;
  std::size_t length = 0;
};

Decoded decode(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  char32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
  } else {
    return {};
  }
  if (text.size() < length) return {};
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return {};
    code = (code << 6) | (byte(i) & 0x3F);
  }
  const bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
  if (overlong || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return {};
  return {code, length};
}

bool hidden(char32_t code) {
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0x061C || code == 0x200E || code == 0x200F ||
         code == 0x2028 || code == 0x2029 || (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

// Calls `plain(std::string_view)` for each run of characters shown as they are
// and `odd(std::string_view bytes, char32_t code, bool valid)` for each hidden
// character or invalid byte.
template <class Plain, class Odd>
void scan(std::string_view text, Plain&& plain, Odd&& odd) {
  std::size_t run = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto one = decode(text.substr(i));
    if (one.length != 0 && !hidden(one.code)) {
      i += one.length;
      continue;
    }
    if (i > run) plain(text.substr(run, i - run));
    const std::size_t length = one.length == 0 ? 1 : one.length;
    odd(text.substr(i, length), one.code, one.length != 0);
    i += length;
    run = i;
  }
  if (i > run) plain(text.substr(run, i - run));
}

}  // namespace

bool has_hidden_characters(std::string_view text) {
  bool found = false;
  scan(
      text, [](std::string_view) {}, [&](std::string_view, char32_t, bool) { found = true; });
  return found;
}

std::string escaped_text(std::string_view bytes, std::size_t max_bytes) {
  const bool cut = bytes.size() > max_bytes;
  // A cut never splits a character: what is left of it would show as invalid bytes.
  std::size_t shown = cut ? max_bytes : bytes.size();
  while (cut && shown > 0 && (static_cast<std::uint8_t>(bytes[shown]) & 0xC0) == 0x80) --shown;
  std::string out;
  out.reserve(shown + 16);
  scan(
      bytes.substr(0, shown), [&](std::string_view run) { out.append(run); },
      [&](std::string_view odd, char32_t code, bool valid) {
        char escape[16];
        if (!valid || code < 0x80) {
          std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<std::uint8_t>(odd[0]));
        } else {
          std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(code));
        }
        out += escape;
      });
  if (cut) out += "... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

std::string one_line_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  scan(
      text, [&](std::string_view run) { out.append(run); }, [&](std::string_view, char32_t, bool) { out += ' '; });
  return out;
}

}  // namespace mcpud
