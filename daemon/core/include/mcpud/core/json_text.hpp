// SPDX-License-Identifier: MIT
// JSON text written directly where building a value only to serialize it would
// cost more (replies on the hot path). Plain functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpud::rpc {

// Appends `text`, valid UTF-8, as a JSON string escaped the way nlohmann's
// serializer escapes it: \" \\ \b \f \n \r \t, other control characters as
// \u00xx, every other byte as it is.
void append_json_string(std::string& out, std::string_view text);

// The bytes of a serialized result (json_rpc.hpp's serialized_result), written
// in place so that no copy is made of them to wrap them.
using JsonBytes = std::vector<std::uint8_t>;
void append_json_string(JsonBytes& out, std::string_view text);
void append_text(JsonBytes& out, std::string_view text);

}  // namespace mcpud::rpc
