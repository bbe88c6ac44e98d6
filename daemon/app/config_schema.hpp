// SPDX-License-Identifier: MIT
// The JSON Schema that mcpud.toml must satisfy.
#pragma once

namespace mcpud::config {
extern const char* const kConfigSchema;
}
