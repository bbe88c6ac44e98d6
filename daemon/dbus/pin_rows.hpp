// SPDX-License-Identifier: MIT
// The board's pins as ListPins rows: number, name, type, and the current value
// with the last sample of sampled inputs.
#pragma once

#include <vector>

#include "dbus/names.hpp"

namespace mcpud::tools {
class PinTable;
}

namespace mcpud::dbus {

// Reads every pin now (outputs report what they drive); a pin whose read fails
// has no "value" and an "error" instead.
std::vector<PinRow> pin_rows(tools::PinTable& pins);

}  // namespace mcpud::dbus
