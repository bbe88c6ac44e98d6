// SPDX-License-Identifier: MIT
// A client's byte stream as a transport reads it: split by the line framer, each
// line served by the engine with both dialects (MCP/U and MCP), the envelope,
// batches and notifications. One client lives through the whole input, so a
// line can build on state an earlier one left (initialize, subscriptions).
#include "mcpud/core/line_framer.hpp"
#include "support/fuzz_input.hpp"
#include "support/fuzz_rpc.hpp"

namespace {
// Small enough that over-long lines occur; large enough for batches.
constexpr std::size_t kMaxLineBytes = 4096;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static mcpud::fuzz::RpcHarness harness;
  mcpud::fuzz::CheckingClient client;
  mcpud::LineFramer framer(kMaxLineBytes);
  framer.feed(
      mcpud::fuzz::as_text(data, size), [&](std::string_view line) { harness.serve(line, client); },
      [&] { mcpud::fuzz::require_json(mcpud::rpc::Engine::line_too_long(kMaxLineBytes), "line_too_long"); });
  client.cancel_pending();
  return 0;
}
