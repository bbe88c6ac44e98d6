// SPDX-License-Identifier: MIT
// The ##START services uplink's byte stream: frames decoded from reads of any
// size (the first byte sets the read size), and every MCP frame's content read
// as the server's call, as the uplink does.
#include <variant>
#include <vector>

#include "services_messages.hpp"
#include "start_frame.hpp"
#include "support/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t read_size = data[0] % 64 + 1;
  auto stream = mcpud::fuzz::as_text(data + 1, size - 1);
  mcpud::uplinks::StartFrameDecoder decoder(4096);
  std::vector<mcpud::uplinks::Decoded> out;
  while (!stream.empty()) {
    const auto chunk = stream.substr(0, read_size);
    stream.remove_prefix(chunk.size());
    decoder.feed(chunk, out);
  }
  for (const auto& decoded : out) {
    const auto* frame = std::get_if<mcpud::uplinks::StartFrame>(&decoded);
    if (frame == nullptr) continue;
    (void)mcpud::uplinks::frame_type_name(frame->type);
    if (frame->type == mcpud::uplinks::FrameType::Mcp) (void)mcpud::uplinks::parse_mcp_message(frame->content);
  }
  return 0;
}
