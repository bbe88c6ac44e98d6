// SPDX-License-Identifier: MIT
// Probe: one front door may not use another; this must not compile.
#include "mcpud/transports/session.hpp"
