// SPDX-License-Identifier: MIT
// User turns of the `##START` protocol (`mcpuctl ask`): each waits under its own
// fresh TaskID for the server's TEXT replies until the server's END_FRAME, a
// quiet period after the last TEXT, or an overall deadline. Event loop only.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/error.hpp"
#include "start_frame.hpp"

namespace mcpud::uplinks {

class TextTurns {
 public:
  using Reply = std::function<void(Result<std::string>)>;

  struct Timing {
    std::chrono::milliseconds timeout;  // no TEXT at all by then: TIMEOUT
    std::chrono::milliseconds quiet;    // after the last TEXT: the answer is complete
  };

  explicit TextTurns(boost::asio::io_context& io) : io_(io) {}
  ~TextTurns() { fail_all(Error::internal("shutting down")); }

  // Opens a turn and returns its fresh TaskID (never `reserved` nor 00000000).
  std::string open(Reply reply, Timing timing, const std::string& reserved);
  // Feeds a frame from the server; false when it belongs to no open turn.
  bool on_frame(const StartFrame& frame);
  // Ends one turn (or all) with `error`.
  void fail(const std::string& task_id, Error error);
  void fail_all(const Error& error);
  std::size_t size() const { return turns_.size(); }

 private:
  struct Turn {
    explicit Turn(boost::asio::io_context& io) : timer(io) {}
    Reply reply;
    Timing timing;
    std::string text;
    bool answered = false;  // a TEXT arrived
    std::chrono::steady_clock::time_point deadline;
    boost::asio::steady_timer timer;
  };
  void arm(const std::string& task_id, Turn& turn, std::chrono::steady_clock::time_point at);
  void finish(const std::string& task_id, Result<std::string> outcome);

  boost::asio::io_context& io_;
  std::map<std::string, std::shared_ptr<Turn>> turns_;
  std::minstd_rand random_{std::random_device{}()};
};

}  // namespace mcpud::uplinks
