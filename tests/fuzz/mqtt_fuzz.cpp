// SPDX-License-Identifier: MIT
// A fleet request as the broker delivers it: topic, MQTT 5 response topic,
// correlation data and payload (NUL-separated), answered as the fleet uplink
// does: the reply topic chosen from the message, the payload served as a line.
#include "fleet_topics.hpp"
#include "mcpud/mqtt/options.hpp"
#include "support/fuzz_input.hpp"
#include "support/fuzz_rpc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static mcpud::fuzz::RpcHarness harness;
  static const mcpud::uplinks::FleetTopics topics("mcpud", "board-1");
  auto [topic, rest] = mcpud::fuzz::split_at_nul(mcpud::fuzz::as_text(data, size));
  auto [response_topic, rest2] = mcpud::fuzz::split_at_nul(rest);
  auto [correlation, payload] = mcpud::fuzz::split_at_nul(rest2);
  mcpud::mqtt::Message message{std::string(topic),          std::string(payload),    1, false,
                               std::string(response_topic), std::string(correlation)};
  (void)topics.reply_topic(message);
  mcpud::fuzz::CheckingClient client;
  harness.serve(message.payload, client);
  client.cancel_pending();
  return 0;
}
