// SPDX-License-Identifier: MIT
// Reading what an MCP/U device sends back: a reply to one of our requests, an
// id-0 protocol error, or noise (boot banners, debug prints). Pure parsing.
#pragma once

#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"

namespace mcpud::bridge {

struct DeviceLine {
  enum class Kind {
    Noise,        // not a JSON object: boot noise, a debug print, a torn line
    Reply,        // a reply carrying a request id we may have sent
    IdZeroError,  // an error with id 0 or null: the device could not read a request
    Unsolicited,  // JSON, but neither of the above (MCP/U devices send none)
  };
  Kind kind = Kind::Noise;
  std::int64_t id = 0;
  Result<nlohmann::json> outcome = nlohmann::json();
};

// Classifies one line (without its "\n"; a trailing "\r" is dropped). A line
// with text before its first '{' is read from that '{', so a reply glued to
// the unterminated tail of a boot banner still arrives.
DeviceLine parse_device_line(std::string_view line, std::string_view device_id);

// A device's JSON-RPC error as an mcpud error: the reference firmware's
// messages for a missing pin, a wrong pin type or a pin without a summary map
// to their domain errors; anything else becomes DEVICE_ERROR. The message keeps
// the device's own words and code, prefixed with the device id.
Error device_error(const nlohmann::json& error, std::string_view device_id);

}  // namespace mcpud::bridge
