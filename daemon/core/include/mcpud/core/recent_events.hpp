// SPDX-License-Identifier: MIT
// A bounded history of one kind of event (the last calls, the last log lines),
// each numbered, that is also published on the EventHub while someone wants it,
// so a reader can show the recent past and then follow live. Single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include <nlohmann/json.hpp>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/text_ring.hpp"

namespace mcpud {

class RecentEvents {
 public:
  // Borrows `hub`; keeps at most `capacity` entries (the oldest go first).
  RecentEvents(EventHub& hub, EventKind kind, std::size_t capacity) : hub_(hub), kind_(kind), entries_(capacity) {}

  // Sets data["seq"], keeps the entry and publishes it (source `source`) when wanted.
  void add(std::string source, nlohmann::json data);
  // {"entries": [oldest first], "next_seq": n, "dropped": entries no longer kept}
  nlohmann::json snapshot() const;
  bool wanted() const { return hub_.wanted(kind_); }

 private:
  EventHub& hub_;
  EventKind kind_;
  TextRing entries_;  // as JSON text
  std::uint64_t next_seq_ = 1;
};

// A JSON value small enough to keep in a history: itself when its text is at
// most `max_bytes`, else a string saying how large it was.
nlohmann::json bounded_copy(const nlohmann::json& value, std::size_t max_bytes);

}  // namespace mcpud
