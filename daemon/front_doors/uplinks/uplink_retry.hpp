// SPDX-License-Identifier: MIT
// How soon an uplink dials again after its first failure: short enough that a
// network blip goes unnoticed, long enough not to hammer a server that refuses.
// The backoff doubles from here up to the table's retry_max_ms.
#pragma once

#include <chrono>

namespace mcpud::uplinks {

inline constexpr std::chrono::milliseconds kUplinkFirstRetry{500};

}  // namespace mcpud::uplinks
