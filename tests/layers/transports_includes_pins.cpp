// SPDX-License-Identifier: MIT
// Probe: a front door may not reach into a back room; this must not compile.
#include "mcpud/pins/pin_table.hpp"
