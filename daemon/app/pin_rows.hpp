// SPDX-License-Identifier: MIT
// The board's pins as ListPins rows: number, name, type, and the current value
// with the last sample of sampled inputs.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <vector>

#include "mcpud/dbus/names.hpp"

namespace mcpud::pins {
class PinTable;
}

namespace mcpud::app {

// Reads every pin now (outputs report what they drive); a pin whose read fails
// has no "value" and an "error" instead.
std::vector<dbus::PinRow> pin_rows(pins::PinTable& table);

}  // namespace mcpud::app
