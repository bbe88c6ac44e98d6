// SPDX-License-Identifier: MIT
// The audit of what changed the world: every actuating call and every
// automatic action (an e-stop, an output returned to safe) as one record with
// a sequence number. Each record goes to the journal with structured fields
// (MCPUD_AUDIT=1, MCPUD_AUDIT_SEQ, ...), into a bounded ring that mcpuctl and
// the dashboard read, and out as an EventKind::Audit event. The ring forgets
// its oldest records when full; a reader asking from before them is told how
// many it lost, so a gap is never silent.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/event_hub.hpp"
#include "mcpud/core/text_ring.hpp"

namespace mcpud {

class AuditLog {
 public:
  // Borrows `events`, which must outlive this log; keeps `capacity` records (at least 1).
  AuditLog(EventHub& events, std::size_t capacity);
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Keeps at most `capacity` records from now on (the oldest go first).
  void set_capacity(std::size_t capacity);
  std::size_t capacity() const { return ring_.capacity(); }

  // Adds `record` (an object: kind, tool, outcome, ...) with its "seq" and
  // "time_ms" (Unix epoch) filled in; returns its sequence number.
  std::uint64_t append(nlohmann::json record);

  // {"records": [...oldest first, seq > after...], "lost": N, "next_seq": S}:
  // `lost` counts the records after `after` the ring no longer has.
  nlohmann::json since(std::uint64_t after) const;

 private:
  EventHub& events_;
  // Kept as JSON text: a fraction of the memory of the values, for a ring
  // that is read far less often than it is written.
  TextRing ring_;
  std::uint64_t next_seq_ = 1;
};

// The journal fields of one record: MCPUD_AUDIT=1, MCPUD_AUDIT_<KEY> for each
// key (objects and arrays as JSON text), MESSAGE, PRIORITY.
std::vector<std::pair<std::string, std::string>> audit_journal_fields(const nlohmann::json& record);
// One line for people: "#12 call tcp 127.0.0.1:5 gpio_write {...} ok".
std::string audit_summary(const nlohmann::json& record);

}  // namespace mcpud
