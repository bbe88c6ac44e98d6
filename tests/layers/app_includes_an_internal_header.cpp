// SPDX-License-Identifier: MIT
// Probe: even the app sees only the public headers of a layer; this must not compile.
#include "line_session.hpp"
