// SPDX-License-Identifier: MIT
// Bounded, numbered event history with live publication.
#include "mcpud/core/recent_events.hpp"

#include "mcpud/core/json_rpc.hpp"

namespace mcpud {

void RecentEvents::add(std::string source, nlohmann::json data) {
  const auto seq = next_seq_++;
  data["seq"] = seq;
  entries_.keep(seq, rpc::dump(data));
  if (hub_.wanted(kind_)) hub_.publish({kind_, std::move(source), std::move(data)});
}

nlohmann::json RecentEvents::snapshot() const {
  nlohmann::json entries = nlohmann::json::array();
  entries_.since(
      0, [&](std::uint64_t, std::string_view text) { entries.push_back(nlohmann::json::parse(text, nullptr, false)); });
  return {{"entries", std::move(entries)}, {"next_seq", next_seq_}, {"dropped", next_seq_ - 1 - entries_.size()}};
}

nlohmann::json bounded_copy(const nlohmann::json& value, std::size_t max_bytes) {
  const auto text = rpc::dump(value);
  if (text.size() <= max_bytes) return value;
  return "(" + std::to_string(text.size()) + " bytes, not kept)";
}

}  // namespace mcpud
