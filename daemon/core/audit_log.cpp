// SPDX-License-Identifier: MIT
// The audit ring, its journal fields and its one-line form.
#include "mcpud/core/audit_log.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>

#include "journal_state.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/log.hpp"

namespace mcpud {

using nlohmann::json;

AuditLog::AuditLog(EventHub& events, std::size_t capacity) : events_(events), ring_(capacity) {}

void AuditLog::set_capacity(std::size_t capacity) { ring_.set_capacity(capacity); }

std::uint64_t AuditLog::append(json record) {
  const auto seq = next_seq_++;
  record["seq"] = seq;
  record["time_ms"] =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  // The journal keeps what the ring forgets: structured when mcpud runs under
  // systemd, one line on stderr otherwise.
  // Neither is built when it would go nowhere (an actuating call is audited on
  // the hot path).
  const bool journaled = log::journal_active() && log::journal_send(audit_journal_fields(record));
  if (!journaled && log::enabled(log::Level::Info)) log::info("audit", audit_summary(record));
  std::string text;
  text.reserve(256);
  rpc::append_dump(text, record);  // the fast writer for plain text; nlohmann's dump for the rest
  ring_.keep(seq, text);
  events_.publish({EventKind::Audit, "audit", std::move(record)});
  return seq;
}

json AuditLog::since(std::uint64_t after) const {
  json records = json::array();
  ring_.since(after,
              [&](std::uint64_t, std::string_view text) { records.push_back(json::parse(text, nullptr, false)); });
  const std::uint64_t oldest = ring_.oldest(next_seq_);
  const std::uint64_t lost = oldest > after + 1 ? oldest - after - 1 : 0;
  return {{"records", std::move(records)}, {"lost", lost}, {"next_seq", next_seq_}};
}

std::vector<std::pair<std::string, std::string>> audit_journal_fields(const json& record) {
  std::vector<std::pair<std::string, std::string>> fields{
      {"MESSAGE", audit_summary(record)}, {"PRIORITY", "5"}, {"SYSLOG_IDENTIFIER", "mcpud"}, {"MCPUD_AUDIT", "1"}};
  for (const auto& [key, value] : record.items()) {
    std::string name = "MCPUD_AUDIT_";
    for (const char c : key) {
      name += std::isalnum(static_cast<unsigned char>(c))
                  ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                  : '_';
    }
    fields.emplace_back(std::move(name), value.is_string() ? value.get<std::string>() : value.dump());
  }
  return fields;
}

std::string audit_summary(const json& record) {
  const auto text = [&](const char* key) {
    const auto found = record.find(key);
    if (found == record.end() || found->is_null()) return std::string();
    return found->is_string() ? found->get<std::string>() : found->dump();
  };
  std::string line = "#" + text("seq") + " " + text("kind");
  for (const char* key : {"door", "peer", "client", "tool", "output", "action", "arguments", "reason", "outcome"}) {
    if (auto part = text(key); !part.empty()) line += " " + part;
  }
  if (auto approval = text("approval"); !approval.empty()) line += " approval " + approval;
  return line;
}

}  // namespace mcpud
