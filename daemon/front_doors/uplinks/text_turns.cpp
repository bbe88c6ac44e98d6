// SPDX-License-Identifier: MIT
// Waiting for the server's answer to a user turn.
#include "text_turns.hpp"

#include <cstdio>

namespace mcpud::uplinks {

std::string TextTurns::open(Reply reply, Timing timing, const std::string& reserved) {
  std::string task_id;
  do {
    char text[16];
    std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(random_()));
    task_id = text;
  } while (task_id == kSystemTaskId || task_id == reserved || turns_.contains(task_id));
  auto turn = std::make_shared<Turn>(io_);
  turn->reply = std::move(reply);
  turn->timing = timing;
  turn->deadline = std::chrono::steady_clock::now() + timing.timeout;
  turns_.emplace(task_id, turn);
  arm(task_id, *turn, turn->deadline);
  return task_id;
}

void TextTurns::arm(const std::string& task_id, Turn& turn, std::chrono::steady_clock::time_point at) {
  turn.timer.expires_at(at);
  turn.timer.async_wait([this, task_id, weak = std::weak_ptr<Turn>(turns_.at(task_id))](boost::system::error_code ec) {
    const auto turn = weak.lock();
    if (ec || !turn) return;
    if (turn->answered) {
      finish(task_id, turn->text);
    } else {
      finish(task_id, std::unexpected(Error::domain(DomainError::Timeout,
                                                    "the server did not answer within " +
                                                        std::to_string(turn->timing.timeout.count() / 1000) + " s")));
    }
  });
}

bool TextTurns::on_frame(const StartFrame& frame) {
  const auto it = turns_.find(frame.task_id);
  if (it == turns_.end()) return false;
  auto& turn = *it->second;
  if (frame.type == FrameType::EndFrame) {
    finish(frame.task_id, turn.text);
    return true;
  }
  if (frame.type != FrameType::Text) return true;
  turn.text += frame.content;
  turn.answered = true;
  // More may follow: wait a quiet period, never past the deadline.
  arm(frame.task_id, turn, std::min(turn.deadline, std::chrono::steady_clock::now() + turn.timing.quiet));
  return true;
}

void TextTurns::fail(const std::string& task_id, Error error) { finish(task_id, std::unexpected(std::move(error))); }

void TextTurns::fail_all(const Error& error) {
  while (!turns_.empty()) fail(turns_.begin()->first, error);
}

void TextTurns::finish(const std::string& task_id, Result<std::string> outcome) {
  const auto it = turns_.find(task_id);
  if (it == turns_.end()) return;
  const auto turn = it->second;
  turns_.erase(it);
  turn->timer.cancel();
  turn->reply(std::move(outcome));
}

}  // namespace mcpud::uplinks
