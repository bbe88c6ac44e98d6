// SPDX-License-Identifier: MIT
// Linked into every fuzz target that uses mcpud's log: only errors are printed,
// so millions of inputs do not flood the output (and slow the run) with info lines.
#include "mcpud/core/log.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  mcpud::log::set_level(mcpud::log::Level::Error);
  return 0;
}
