// SPDX-License-Identifier: MIT
// The request fast path against the parser it stands in for: every line the
// plain reader accepts must be one json::parse accepts, with the same value
// byte for byte once dumped (so 1, 1.0 and 1e0 stay apart), and the depth it
// counts must be nesting_depth()'s, since the engine then skips its own scan.
// A line the reader declines goes to the parser: nothing to compare.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/json_rpc.hpp"
#include "plain_request.hpp"
#include "support/fuzz_input.hpp"

namespace {

[[noreturn]] void mismatch(std::string_view line, const std::string& what) {
  std::fprintf(stderr, "plain_request_fuzz: %s\nline: %.*s\n", what.c_str(), static_cast<int>(line.size()),
               line.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto line = mcpud::fuzz::as_text(data, size);
  auto plain = mcpud::rpc::read_plain_request(line);
  if (!plain) return 0;
  const auto depth = plain->depth;
  const auto parsed = nlohmann::json::parse(line, nullptr, false);
  if (parsed.is_discarded()) mismatch(line, "the plain reader accepted a line the parser refuses");
  const auto fast = std::move(*plain).to_json();
  if (fast.dump() != parsed.dump()) mismatch(line, "plain " + fast.dump() + " != parsed " + parsed.dump());
  if (depth != 0 && depth != mcpud::rpc::nesting_depth(line)) {
    mismatch(line,
             "depth " + std::to_string(depth) + " != nesting_depth " + std::to_string(mcpud::rpc::nesting_depth(line)));
  }
  return 0;
}
