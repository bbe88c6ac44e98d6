// SPDX-License-Identifier: MIT
// How serial bytes travel inside JSON strings: UTF-8 text (lossy, flagged),
// hex or base64, both ways.
#pragma once

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace mcpud::serial {

enum class Encoding { Utf8, Hex, Base64 };

std::optional<Encoding> parse_encoding(std::string_view name);
std::string_view encoding_name(Encoding encoding);

// Bytes as text in `encoding`. For UTF-8, invalid sequences become U+FFFD and
// `lossy` (when given) says whether any did.
std::string encode(std::string_view bytes, Encoding encoding, bool* lossy = nullptr);
// Text from a client back to bytes; the error says what is wrong and where.
// Hex accepts upper or lower case and ignores spaces, ':' and '-' between pairs.
std::expected<std::string, std::string> decode(std::string_view text, Encoding encoding);

bool valid_utf8(std::string_view bytes);
// How many bytes at the end of `bytes` are the start of a UTF-8 sequence that is
// valid so far but incomplete (0..3): a reader holds them back for the next read
// instead of mangling a character that arrived in two pieces.
std::size_t incomplete_utf8_tail(std::string_view bytes);

std::string to_hex(std::string_view bytes);
std::string to_base64(std::string_view bytes);

}  // namespace mcpud::serial
