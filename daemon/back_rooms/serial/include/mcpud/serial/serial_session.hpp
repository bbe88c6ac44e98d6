// SPDX-License-Identifier: MIT
// One open serial port: a background reader that fills a ring buffer from the
// moment the port opens, reads that wait (for data, a pattern, a quiet line)
// without blocking the loop, queued writes with deadlines, modem lines.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/client_identity.hpp"
#include "mcpud/core/error.hpp"
#include "mcpud/core/event_hub.hpp"
#include "mcpud/io/port_open.hpp"
#include "mcpud/io/port_settings.hpp"
#include "mcpud/serial/byte_ring.hpp"
#include "mcpud/serial/pattern.hpp"

namespace mcpud::serial {

using Millis = std::chrono::milliseconds;

// What a waiting read is waiting for. Without `until` and `quiet` it ends as
// soon as any byte is buffered (like read(2)).
struct ReadRequest {
  std::size_t max_bytes = 1024;
  Millis timeout{100};
  std::shared_ptr<const Pattern> until;  // end just after the first match
  std::optional<Millis> quiet;           // without `until`: end once no byte came for this long
  bool fill = false;                     // without `until` and `quiet`: collect until timeout or max_bytes
  bool whole_utf8 = true;                // hold back a UTF-8 character cut in two
};

// Why a read ended.
enum class ReadEnd { Data, Match, MaxBytes, Quiet, Timeout, Disconnected, Closed };
std::string_view read_end_name(ReadEnd end);

struct ReadOutcome {
  std::string bytes;
  ReadEnd end = ReadEnd::Data;
  std::optional<Match> match;  // where `until` matched inside `bytes`
  std::uint64_t lost = 0;      // bytes dropped by ring overflow since the previous read
  bool device_gone = false;    // the device is gone: these were bytes buffered before
};

using ReadDone = std::move_only_function<void(Result<ReadOutcome>)>;
using WriteDone = std::move_only_function<void(Result<std::size_t>)>;
using DoneVoid = std::move_only_function<void(Result<void>)>;

enum class SessionState { Open, Disconnected, Closed };

struct SessionOptions {
  std::string id;
  std::string port;    // as the client named it
  std::string device;  // canonical path, e.g. /dev/ttyACM0
  io::PortSettings settings;
  Millis default_timeout{};  // the OpenRequest's, as are newline and buffer_bytes
  std::string newline;
  std::size_t buffer_bytes{};
  // The client the session belongs to when it is that client's alone (expired
  // once the client went away); unset with `owned` false: every client's.
  std::weak_ptr<const ClientIdentity> owner;
  bool owned = false;
  // Opened by a stateless request: every stateless request's (its id, 122
  // random bits, is the handle), none of a connection's; closed when unused.
  bool stateless = false;
};

struct SessionCounters {
  std::uint64_t received = 0;   // bytes read from the port
  std::uint64_t delivered = 0;  // bytes handed to clients by reads
  std::uint64_t sent = 0;       // bytes written to the port
  std::uint64_t discarded = 0;  // bytes dropped on purpose (serial_flush, serial_exec's flush)
};

// Modem-line actions of serial_set_lines, done in this order.
struct LineActions {
  std::optional<bool> dtr;
  std::optional<bool> rts;
  std::optional<std::string> pulse;  // "dtr" or "rts": asserted for pulse_ms, then released
  Millis pulse_ms{100};
  std::optional<Millis> break_ms;
};

// Lives in a shared_ptr (pending operations hold it). Event loop only.
class SerialSession : public std::enable_shared_from_this<SerialSession> {
 public:
  SerialSession(boost::asio::io_context& io, io::UniqueFd fd, SessionOptions options, EventHub& events);
  ~SerialSession();

  // Starts the background reader.
  void start();

  // Queues a read; `done` is called once (maybe before read returns). Reads are
  // served in order; a read behind another one times out on its own deadline.
  // Called while a request is dispatched, the read is cancellable (CallCancellation).
  void read(ReadRequest request, ReadDone done);
  // Writes all of `bytes` within `timeout` (TIMEOUT names how many got out).
  void write(std::string bytes, Millis timeout, WriteDone done);
  // Drops buffered input (ring and kernel) and/or unsent output; returns the
  // bytes dropped from the ring.
  Result<std::size_t> flush(bool input, bool output);
  // Modem lines and break; asynchronous because pulses and breaks take time.
  void set_lines(const LineActions& actions, DoneVoid done);
  // Current DTR, RTS, CTS, DSR, DCD, RI.
  Result<nlohmann::json> modem_lines();

  // The device went away (udev remove, EIO, hang-up): the port is released, the
  // buffered bytes can still be read, then calls fail with DEVICE_DISCONNECTED.
  void device_gone(const std::string& reason);
  // serial_disconnect: releases the port and ends every pending call. Output
  // the driver has not sent yet is dropped: closing a UART with output pending
  // would otherwise block (up to its closing_wait, 30 s) in close(2).
  void close();

  const SessionOptions& options() const { return options_; }
  SessionState state() const { return state_; }
  const std::string& gone_reason() const { return gone_reason_; }
  const SessionCounters& counters() const { return counters_; }
  std::size_t buffered() const { return ring_.size(); }
  std::uint64_t lost() const { return ring_.lost(); }
  std::size_t pending_reads() const { return waiters_.size(); }
  // Reads one session queues at most; more get BUSY (each holds a timer and its reply).
  static constexpr std::size_t kMaxPendingReads = 16;
  std::chrono::system_clock::time_point opened_at() const { return opened_at_; }
  // The error every call on a session that is not open gets.
  Error not_open_error() const;
  // Whether `who` may use the session: its owner, anyone when it has none, and
  // the daemon itself (null `who`).
  bool usable_by(const std::shared_ptr<ClientIdentity>& who) const;
  // It belongs to a client that went away.
  bool orphaned() const { return options_.owned && options_.owner.expired(); }
  // When a client last found it (SerialService::find), or opened it.
  std::chrono::steady_clock::time_point last_used() const { return last_used_; }
  void mark_used() { last_used_ = std::chrono::steady_clock::now(); }

 private:
  struct Waiter;
  struct WriteJob {
    std::string bytes;
    Millis timeout;
    WriteDone done;
  };

  void read_more();
  void on_read(boost::system::error_code ec, std::size_t n);
  void publish(std::string_view bytes);
  // Publishes to the owner alone, or to everyone when the session has no owner;
  // an orphan's events are dropped.
  void publish_event(EventKind kind, std::string source, nlohmann::json data);
  void service();
  std::optional<Result<ReadOutcome>> try_complete(const ReadRequest& request, bool timed_out);
  ReadOutcome take(std::size_t n, ReadEnd end);
  void finish_front(Result<ReadOutcome> result);
  void on_deadline(const std::shared_ptr<Waiter>& waiter);
  void cancel_read(const std::shared_ptr<Waiter>& waiter);
  void arm_quiet_timer();
  void write_next();
  void on_written(boost::system::error_code ec, std::size_t n);
  void fail_writes(const Error& error);
  void run_line_steps(std::shared_ptr<std::deque<std::pair<std::function<Result<void>()>, Millis>>> steps,
                      DoneVoid done);

  boost::asio::io_context& io_;
  boost::asio::posix::stream_descriptor stream_;
  SessionOptions options_;
  EventHub& events_;
  ByteRing ring_;
  std::vector<char> read_buffer_;
  std::deque<std::shared_ptr<Waiter>> waiters_;
  boost::asio::steady_timer quiet_timer_;
  std::chrono::steady_clock::time_point last_arrival_{};
  std::deque<WriteJob> writes_;
  boost::asio::steady_timer write_timer_;
  bool writing_ = false;
  bool write_timed_out_ = false;
  boost::asio::steady_timer line_timer_;
  SessionState state_ = SessionState::Open;
  std::string gone_reason_;
  SessionCounters counters_;
  std::uint64_t lost_reported_ = 0;
  std::chrono::system_clock::time_point opened_at_ = std::chrono::system_clock::now();
  std::chrono::steady_clock::time_point last_used_ = std::chrono::steady_clock::now();
};

}  // namespace mcpud::serial
