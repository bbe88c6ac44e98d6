// SPDX-License-Identifier: MIT
// One live connection to an MCP/U device: writes requests with fresh integer
// ids, reads replies line by line, matches them to the calls in flight, fails
// calls after their deadline (TIMEOUT), when their reply is longer than the
// line limit (REPLY_TOO_LARGE) or when the link drops (DEVICE_DISCONNECTED).
// Ignores and counts lines that are not replies.
// Single-threaded (event loop only); owned through shared_ptr because pending
// reads, writes and timers keep it alive.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include "call_table.hpp"
#include "link_stream.hpp"
#include "mcpud/core/line_framer.hpp"

namespace mcpud::bridge {

// timeout_ms and max_in_flight come from the bridge's [[bridges]] table.
struct LinkOptions {
  std::string device_id;        // names the device in messages
  std::uint32_t timeout_ms{};   // per call
  std::size_t max_in_flight{};  // more concurrent calls get BUSY
  std::size_t max_line_bytes = 256 * 1024;
};

struct LinkStats {
  std::uint64_t noise_lines = 0;  // not JSON: boot noise, debug prints
  std::uint64_t unmatched = 0;    // JSON replies to no call in flight (late, unknown id)
  std::uint64_t overflows = 0;    // lines over max_line_bytes
  std::uint64_t resends = 0;      // requests written again after an id-0 parse error
};

class McuLink : public std::enable_shared_from_this<McuLink> {
 public:
  using LostHandler = std::function<void(const Error&)>;

  McuLink(boost::asio::io_context& io, std::unique_ptr<LinkStream> stream, LinkOptions options, LostHandler on_lost);
  ~McuLink();
  McuLink(const McuLink&) = delete;
  McuLink& operator=(const McuLink&) = delete;

  // Starts reading. on_lost runs once if the stream fails or ends (not after close()).
  void start();
  // Sends `method` with `params` (omitted when null); `reply` runs exactly once.
  void call(const std::string& method, const nlohmann::json& params, ToolReply reply);
  // Closes the stream and fails every call in flight with `reason`.
  void close(const Error& reason);
  // With `on`, at most one request is on the wire; later calls wait their turn
  // (their deadline runs while they wait). For boards whose UART buffer a second
  // request would overflow (an AVR's is 64 bytes).
  void set_one_at_a_time(bool on) { one_at_a_time_ = on; }

  bool open() const { return open_; }
  const LinkStats& stats() const { return stats_; }
  std::size_t in_flight() const { return calls_.size() + waiting_.size(); }

 private:
  void read_more();
  void on_line(std::string_view line);
  void on_overlong_line(std::size_t bytes);
  // "<device>: ... line limit of N bytes", for a reply of `bytes` (or more, `at_least`).
  std::string too_long_message(std::size_t bytes, bool at_least) const;
  void dispatch(CallTable::Call call);
  // Ends a call the client cancelled, whether on the wire or still waiting its turn.
  void abandon(std::int64_t id);
  void pump();
  void send(std::string line);
  void write_next();
  void arm_deadline_timer();
  void on_deadline();
  Error timeout_error(const CallTable::Call& call) const;
  void lost(const Error& reason);

  boost::asio::io_context& io_;
  std::unique_ptr<LinkStream> stream_;
  LinkOptions options_;
  LostHandler on_lost_;
  CallTable calls_;                      // on the wire
  std::deque<CallTable::Call> waiting_;  // one at a time: not yet sent
  bool one_at_a_time_ = false;
  LineFramer framer_;
  std::array<char, 4096> read_buffer_{};
  std::deque<std::string> write_queue_;
  bool writing_ = false;
  bool open_ = false;
  boost::asio::steady_timer deadline_timer_;
  LinkStats stats_;
};

}  // namespace mcpud::bridge
