// SPDX-License-Identifier: MIT
// rpc::dump, the serializer replies and notifications are written with, against
// nlohmann's dump it stands in for: the same text byte for byte, whatever the
// value. Values come from the input parsed as JSON, and from its raw bytes as
// a string and as an object key (invalid UTF-8 included, which both replace).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/json_rpc.hpp"
#include "support/fuzz_input.hpp"

namespace {

using nlohmann::json;

// Deeper values are refused before they are parsed (the engine's max_depth),
// and nlohmann's own dump recurses once per level.
constexpr std::size_t kMaxDepth = 256;

void check(const json& value) {
  const auto fast = mcpud::rpc::dump(value);
  const auto reference = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (fast == reference) return;
  std::fprintf(stderr, "json_dump_fuzz: rpc::dump wrote\n%s\nwhere nlohmann writes\n%s\n", fast.c_str(),
               reference.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(mcpud::fuzz::as_text(data, size));
  check(json(text));
  check(json::object({{text, nullptr}}));
  if (mcpud::rpc::nesting_depth(text) > kMaxDepth) return 0;
  const auto parsed = json::parse(text, nullptr, false);
  if (!parsed.is_discarded()) check(parsed);
  return 0;
}
