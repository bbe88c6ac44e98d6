// SPDX-License-Identifier: MIT
// Control probe: a front door includes core and its own public headers.
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/transports/session.hpp"
