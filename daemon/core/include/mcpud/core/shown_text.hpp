// SPDX-License-Identifier: MIT
// Text that came from a peer (a bridged device's names and descriptions, its
// debug lines) made safe to show in a log line, a terminal table or a web page:
// nothing in it can start a new line, move the cursor, or reorder what follows.
// Plain functions; any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mcpud {

// Whether `text` holds anything a reader could be fooled by: a C0 control
// character (tab and newline too), DEL, a C1 control character, a line or
// paragraph separator (U+2028, U+2029), a bidirectional formatting character
// (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) or a byte that is
// not part of valid UTF-8.
bool has_hidden_characters(std::string_view text);

// `bytes` with each such character written out: \xNN for a byte (a control
// character below 0x80, or invalid UTF-8), \uNNNN for a character above. The
// rest, and any valid UTF-8, as it is. At most `max_bytes` of the input are
// shown; a longer input ends in "... (N bytes)".
std::string escaped_text(std::string_view bytes, std::size_t max_bytes = std::string_view::npos);

// `text` with each such character replaced by one space: for descriptions,
// which people read (a newline the device put in one reads as well as a space).
std::string one_line_text(std::string_view text);

}  // namespace mcpud
