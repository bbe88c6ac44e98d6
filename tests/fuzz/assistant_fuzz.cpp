// SPDX-License-Identifier: MIT
// A voice-assistant server's WebSocket text messages: classified as the
// assistant session does, the server's hello accepted or refused, a goodbye
// matched against the session, and secrets redacted before a message is logged.
#include "assistant_protocol.hpp"
#include "support/fuzz_input.hpp"
#include "ws_url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = mcpud::fuzz::as_text(data, size);
  const auto incoming = mcpud::uplinks::classify(text);
  (void)mcpud::uplinks::redact_secrets(incoming.message);
  switch (incoming.kind) {
    case mcpud::uplinks::IncomingKind::Hello:
      (void)mcpud::uplinks::accept_server_hello(incoming.message, "websocket");
      break;
    case mcpud::uplinks::IncomingKind::Goodbye:
      (void)mcpud::uplinks::ends_session(incoming.message, "session-1");
      break;
    case mcpud::uplinks::IncomingKind::Mcp:
      (void)mcpud::uplinks::mcp_envelope(incoming.message, "session-1");
      break;
    default:
      break;
  }
  (void)mcpud::uplinks::parse_ws_url(std::string(text));
  return 0;
}
