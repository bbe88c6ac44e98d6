// SPDX-License-Identifier: MIT
// Id allocation, reply matching, deadlines and the id-0 resend rule.
#include "call_table.hpp"

namespace mcpud::bridge {

std::int64_t CallTable::next_id() {
  do {
    last_id_ = last_id_ >= kMaxId ? 1 : last_id_ + 1;
  } while (calls_.contains(last_id_));
  return last_id_;
}

void CallTable::insert(Call call) {
  const auto id = call.id;
  calls_.insert_or_assign(id, std::move(call));
}

std::optional<CallTable::Call> CallTable::take(std::int64_t id) {
  const auto it = calls_.find(id);
  if (it == calls_.end()) return std::nullopt;
  Call call = std::move(it->second);
  calls_.erase(it);
  return call;
}

std::optional<std::string> CallTable::resend_after_id_zero_error(std::string_view device_message) {
  if (calls_.size() != 1) return std::nullopt;
  auto& call = calls_.begin()->second;
  if (call.resent) {
    call.unread_error = device_message;
    return std::nullopt;
  }
  call.resent = true;
  return call.line;
}

std::optional<CallTable::Call> CallTable::take_after_overlong_line(std::size_t bytes) {
  if (calls_.size() == 1) return take(calls_.begin()->first);
  for (auto& [id, call] : calls_) call.dropped_line_bytes = bytes;
  return std::nullopt;
}

std::vector<CallTable::Call> CallTable::take_expired(Clock::time_point now) {
  std::vector<Call> expired;
  for (auto it = calls_.begin(); it != calls_.end();) {
    if (it->second.deadline <= now) {
      expired.push_back(std::move(it->second));
      it = calls_.erase(it);
    } else {
      ++it;
    }
  }
  return expired;
}

std::vector<CallTable::Call> CallTable::take_all() {
  std::vector<Call> all;
  for (auto& [id, call] : calls_) all.push_back(std::move(call));
  calls_.clear();
  return all;
}

std::optional<CallTable::Clock::time_point> CallTable::earliest_deadline() const {
  std::optional<Clock::time_point> earliest;
  for (const auto& [id, call] : calls_) {
    if (!earliest || call.deadline < *earliest) earliest = call.deadline;
  }
  return earliest;
}

}  // namespace mcpud::bridge
