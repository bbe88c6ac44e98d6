// SPDX-License-Identifier: MIT
// mcpud.toml as the daemon reads it at start, on SIGHUP and in --check-config:
// parsed with toml++, then checked and turned into a configuration.
#include "config.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)mcpud::config::parse(mcpud::fuzz::as_text(data, size), "fuzz.toml");
  return 0;
}
