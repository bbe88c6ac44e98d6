// SPDX-License-Identifier: MIT
// What serial tools take from clients and devices: a wait-for pattern (a regular
// expression or literal bytes) searched in received bytes, separated by a NUL;
// the bytes also decoded from and encoded to every encoding.
#include <cstdlib>

#include "encoding.hpp"
#include "mcpud/serial/pattern.hpp"
#include "support/fuzz_input.hpp"

namespace {

void check_encodings(std::string_view bytes) {
  using mcpud::serial::Encoding;
  for (const auto encoding : {Encoding::Utf8, Encoding::Hex, Encoding::Base64}) {
    (void)mcpud::serial::decode(bytes, encoding);
    bool lossy = false;
    const auto text = mcpud::serial::encode(bytes, encoding, &lossy);
    // What mcpud sends must read back as the same bytes unless it said it lost some.
    const auto back = mcpud::serial::decode(text, encoding);
    if (!lossy && (!back || *back != bytes)) std::abort();
  }
  (void)mcpud::serial::incomplete_utf8_tail(bytes);
  (void)mcpud::serial::parse_encoding(bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [expression, subject] = mcpud::fuzz::split_at_nul(mcpud::fuzz::as_text(data, size));
  if (auto regex = mcpud::serial::Pattern::regex(std::string(expression)); regex) (void)(*regex)->find(subject);
  if (auto literal = mcpud::serial::Pattern::literal(std::string(expression)); literal) (void)(*literal)->find(subject);
  check_encodings(subject);
  return 0;
}
