// SPDX-License-Identifier: MIT
// What each libgpiod backend file (gpio_v1.cpp, gpio_v2.cpp) provides besides
// the requests declared in mcpud/hal/gpio.hpp.
#pragma once

#include <string>

#include "mcpud/hal/gpio.hpp"

namespace mcpud::hal::detail {

// Opens the chip at `path` and reads its name, label and line names.
HalResult<ChipInfo> probe_chip(const std::string& path);

}  // namespace mcpud::hal::detail
