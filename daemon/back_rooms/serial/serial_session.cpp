// SPDX-License-Identifier: MIT
// The serial session: background reader, waiting reads, queued writes.
#include "mcpud/serial/serial_session.hpp"

#include "mcpud/core/enum_names.hpp"

#include <sys/ioctl.h>
#include <termios.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/write.hpp>

#include "encoding.hpp"
#include "mcpud/core/call_cancellation.hpp"
#include "mcpud/serial/serial_log.hpp"

namespace mcpud::serial {
namespace {

constexpr std::size_t kReadChunk = 16 * 1024;

Error os_failure(DomainError kind, const std::string& what) {
  return Error::domain(kind, what + ": " + std::strerror(errno));
}

}  // namespace

struct SerialSession::Waiter {
  Waiter(boost::asio::io_context& io, ReadRequest r, ReadDone d)
      : request(std::move(r)), done(std::move(d)), deadline(io) {}
  ReadRequest request;
  ReadDone done;
  boost::asio::steady_timer deadline;
};

std::string_view read_end_name(ReadEnd end) {
  static constexpr EnumNames<ReadEnd, 7> kNames{{{ReadEnd::Data, "data"},
                                                 {ReadEnd::Match, "match"},
                                                 {ReadEnd::MaxBytes, "max_bytes"},
                                                 {ReadEnd::Quiet, "quiet"},
                                                 {ReadEnd::Timeout, "timeout"},
                                                 {ReadEnd::Disconnected, "disconnected"},
                                                 {ReadEnd::Closed, "closed"}}};
  return name_of(kNames, end, "data");
}

SerialSession::SerialSession(boost::asio::io_context& io, io::UniqueFd fd, SessionOptions options, EventHub& events)
    : io_(io),
      stream_(io, fd.release()),
      options_(std::move(options)),
      events_(events),
      ring_(options_.buffer_bytes),
      read_buffer_(kReadChunk),
      quiet_timer_(io),
      write_timer_(io),
      line_timer_(io) {}

SerialSession::~SerialSession() {
  boost::system::error_code ignored;
  stream_.close(ignored);
}

void SerialSession::start() { read_more(); }

Error SerialSession::not_open_error() const {
  if (state_ == SessionState::Disconnected) {
    return Error::domain(DomainError::DeviceDisconnected,
                         "session " + options_.id + ": " + options_.port + " was disconnected (" + gone_reason_ +
                             "); call serial_disconnect, then serial_connect when it is back");
  }
  return Error::domain(DomainError::UnknownSession, "session " + options_.id + " was closed");
}

// ---- background reader ----

void SerialSession::read_more() {
  stream_.async_read_some(
      boost::asio::buffer(read_buffer_),
      [self = shared_from_this()](boost::system::error_code ec, std::size_t n) { self->on_read(ec, n); });
}

void SerialSession::on_read(boost::system::error_code ec, std::size_t n) {
  if (state_ != SessionState::Open) return;
  if (ec == boost::asio::error::operation_aborted) {
    read_more();  // a write deadline cancelled the descriptor; the reader carries on
    return;
  }
  if (ec) {
    // A tty whose device vanished reads EOF (hung up) or fails with EIO.
    device_gone(ec == boost::asio::error::eof ? "hung up" : "read failed: " + ec.message());
    return;
  }
  const std::string_view bytes(read_buffer_.data(), n);
  ring_.push(bytes);
  counters_.received += n;
  last_arrival_ = std::chrono::steady_clock::now();
  publish(bytes);
  read_more();
  service();
}

void SerialSession::publish(std::string_view bytes) {
  if (events_.listener_count() == 0) return;
  const bool text = valid_utf8(bytes);
  nlohmann::json data = nlohmann::json::object();
  data["session_id"] = options_.id;
  data["port"] = options_.port;
  data["data"] = text ? std::string(bytes) : to_base64(bytes);
  data["encoding"] = text ? "utf8" : "base64";
  data["bytes"] = bytes.size();
  publish_event(EventKind::SerialData, options_.id, std::move(data));
}

void SerialSession::publish_event(EventKind kind, std::string source, nlohmann::json data) {
  std::shared_ptr<const ClientIdentity> audience;
  if (options_.owned) {
    audience = options_.owner.lock();
    if (!audience) return;
  }
  events_.publish({kind, std::move(source), std::move(data), std::move(audience)});
}

bool SerialSession::usable_by(const std::shared_ptr<ClientIdentity>& who) const {
  if (!who) return true;
  if (options_.stateless) return who->lasts_one_request();
  if (!options_.owned) return true;
  return options_.owner.lock() == who;
}

// ---- waiting reads ----

void SerialSession::read(ReadRequest request, ReadDone done) {
  if (state_ == SessionState::Closed || (state_ == SessionState::Disconnected && ring_.empty())) {
    done(std::unexpected(not_open_error()));
    return;
  }
  if (waiters_.size() >= kMaxPendingReads) {
    done(std::unexpected(Error::domain(DomainError::Busy, "too many reads waiting on this session (at most " +
                                                              std::to_string(kMaxPendingReads) + ")")));
    return;
  }
  auto waiter = std::make_shared<Waiter>(io_, std::move(request), std::move(done));
  waiters_.push_back(waiter);
  // A cancelled read (MCP notifications/cancelled) leaves the queue at once, so
  // the data that arrives later goes to the next read, not to nobody.
  if (auto* cancellation = CallCancellation::current()) {
    cancellation->on_cancel([weak = weak_from_this(), weak_waiter = std::weak_ptr<Waiter>(waiter)] {
      auto self = weak.lock();
      if (auto waiter = weak_waiter.lock(); self && waiter) self->cancel_read(waiter);
    });
  }
  waiter->deadline.expires_after(waiter->request.timeout);
  waiter->deadline.async_wait([weak = weak_from_this(), waiter](boost::system::error_code ec) {
    auto self = weak.lock();
    if (!ec && self) self->on_deadline(waiter);
  });
  service();
}

void SerialSession::cancel_read(const std::shared_ptr<Waiter>& waiter) {
  const auto it = std::find(waiters_.begin(), waiters_.end(), waiter);
  if (it == waiters_.end()) return;
  const bool was_first = it == waiters_.begin();
  waiters_.erase(it);
  waiter->deadline.cancel();
  ReadOutcome outcome;
  outcome.end = ReadEnd::Timeout;
  waiter->done(std::move(outcome));  // the engine drops this answer
  if (was_first) service();
}

void SerialSession::on_deadline(const std::shared_ptr<Waiter>& waiter) {
  const auto it = std::find(waiters_.begin(), waiters_.end(), waiter);
  if (it == waiters_.end()) return;
  if (it != waiters_.begin()) {
    // Queued behind another read: it never had a turn at the data.
    waiters_.erase(it);
    ReadOutcome outcome;
    outcome.end = ReadEnd::Timeout;
    waiter->done(std::move(outcome));
    return;
  }
  if (auto result = try_complete(waiter->request, true)) finish_front(std::move(*result));
  service();
}

void SerialSession::service() {
  while (!waiters_.empty()) {
    auto result = try_complete(waiters_.front()->request, false);
    if (!result) break;
    finish_front(std::move(*result));
  }
  arm_quiet_timer();
}

void SerialSession::finish_front(Result<ReadOutcome> result) {
  auto waiter = waiters_.front();
  waiters_.pop_front();
  waiter->deadline.cancel();
  if (result) {
    counters_.delivered += result->bytes.size();
    result->device_gone = state_ == SessionState::Disconnected;
  }
  waiter->done(std::move(result));
}

// Whether the read can end now; with `timed_out` it always ends.
std::optional<Result<ReadOutcome>> SerialSession::try_complete(const ReadRequest& request, bool timed_out) {
  const std::size_t window = std::min(ring_.size(), request.max_bytes);
  if (state_ != SessionState::Open && ring_.empty()) return Result<ReadOutcome>(std::unexpected(not_open_error()));
  const bool ending = timed_out || state_ != SessionState::Open;
  const ReadEnd forced = state_ == SessionState::Open     ? ReadEnd::Timeout
                         : state_ == SessionState::Closed ? ReadEnd::Closed
                                                          : ReadEnd::Disconnected;
  if (request.until) {
    if (auto match = request.until->find(ring_.peek(window))) {
      auto outcome = take(match->end, ReadEnd::Match);
      outcome.match = match;
      return outcome;
    }
    if (window == request.max_bytes) return take(window, ReadEnd::MaxBytes);
    if (ending) return take(window, forced);
    return std::nullopt;
  }
  if (window == request.max_bytes) {
    std::size_t n = window;
    // Keep a character cut at the window's edge whole for the next read.
    if (request.whole_utf8) n -= std::min(n, incomplete_utf8_tail(ring_.peek(window)));
    return take(n == 0 ? window : n, ReadEnd::MaxBytes);
  }
  if (ending) return take(window, forced);
  if (window == 0) return std::nullopt;
  if (request.fill) return std::nullopt;
  if (request.quiet) {
    if (std::chrono::steady_clock::now() - last_arrival_ < *request.quiet) return std::nullopt;
    return take(window, ReadEnd::Quiet);
  }
  std::size_t n = window;
  if (request.whole_utf8) n -= incomplete_utf8_tail(ring_.peek(window));
  if (n == 0) return std::nullopt;  // only the first bytes of a character so far: wait for the rest
  return take(n, ReadEnd::Data);
}

ReadOutcome SerialSession::take(std::size_t n, ReadEnd end) {
  ReadOutcome outcome;
  outcome.bytes = ring_.take(n);
  outcome.end = end;
  outcome.lost = ring_.lost() - lost_reported_;
  lost_reported_ = ring_.lost();
  return outcome;
}

void SerialSession::arm_quiet_timer() {
  if (waiters_.empty() || ring_.empty() || state_ != SessionState::Open) return;
  const auto& request = waiters_.front()->request;
  if (!request.quiet || request.until) return;
  quiet_timer_.expires_at(last_arrival_ + *request.quiet);
  quiet_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (!ec && self) self->service();
  });
}

// ---- writes ----

void SerialSession::write(std::string bytes, Millis timeout, WriteDone done) {
  if (state_ != SessionState::Open) {
    done(std::unexpected(not_open_error()));
    return;
  }
  writes_.push_back({std::move(bytes), timeout, std::move(done)});
  if (!writing_) write_next();
}

void SerialSession::write_next() {
  if (writes_.empty()) return;
  writing_ = true;
  write_timed_out_ = false;
  const auto& job = writes_.front();
  write_timer_.expires_after(job.timeout);
  write_timer_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || !self->writing_) return;
    self->write_timed_out_ = true;
    boost::system::error_code ignored;
    self->stream_.cancel(ignored);  // also aborts the reader, which re-arms itself
  });
  boost::asio::async_write(
      stream_, boost::asio::buffer(job.bytes),
      [self = shared_from_this()](boost::system::error_code ec, std::size_t n) { self->on_written(ec, n); });
}

void SerialSession::on_written(boost::system::error_code ec, std::size_t n) {
  writing_ = false;
  write_timer_.cancel();
  counters_.sent += n;
  if (writes_.empty()) return;  // failed by close() or device_gone() already
  auto job = std::move(writes_.front());
  writes_.pop_front();
  if (!ec) {
    job.done(n);
  } else if (write_timed_out_) {
    job.done(std::unexpected(
        Error::domain(DomainError::Timeout, "wrote " + std::to_string(n) + " of " + std::to_string(job.bytes.size()) +
                                                " bytes in " + std::to_string(job.timeout.count()) +
                                                " ms; the port is not draining (flow control holding it back?)")));
  } else if (ec == boost::asio::error::operation_aborted && state_ != SessionState::Open) {
    job.done(std::unexpected(not_open_error()));
  } else {
    const bool gone = ec.value() == EIO || ec.value() == ENXIO || ec.value() == ENODEV;
    if (gone) {
      device_gone("write failed: " + ec.message());
      job.done(std::unexpected(not_open_error()));
      return;
    }
    job.done(std::unexpected(Error::domain(DomainError::WriteError, options_.port + ": write: " + ec.message())));
  }
  // `done` may have queued a write and started it: one write at a time on the port.
  if (state_ == SessionState::Open && !writing_) write_next();
}

void SerialSession::fail_writes(const Error& error) {
  auto jobs = std::move(writes_);
  writes_.clear();
  write_timer_.cancel();
  for (auto& job : jobs) job.done(std::unexpected(error));
}

// ---- flush and modem lines ----

Result<std::size_t> SerialSession::flush(bool input, bool output) {
  if (state_ != SessionState::Open) return std::unexpected(not_open_error());
  const int queue = input && output ? TCIOFLUSH : input ? TCIFLUSH : TCOFLUSH;
  if ((input || output) && ::tcflush(stream_.native_handle(), queue) != 0) {
    return std::unexpected(os_failure(DomainError::WriteError, options_.port + ": tcflush"));
  }
  const std::size_t dropped = input ? ring_.clear() : 0;
  counters_.discarded += dropped;
  return dropped;
}

Result<nlohmann::json> SerialSession::modem_lines() {
  if (state_ != SessionState::Open) return std::unexpected(not_open_error());
  int bits = 0;
  if (::ioctl(stream_.native_handle(), TIOCMGET, &bits) != 0) {
    return std::unexpected(os_failure(DomainError::ReadError, options_.port + " has no modem lines (TIOCMGET)"));
  }
  return nlohmann::json{{"dtr", (bits & TIOCM_DTR) != 0}, {"rts", (bits & TIOCM_RTS) != 0},
                        {"cts", (bits & TIOCM_CTS) != 0}, {"dsr", (bits & TIOCM_DSR) != 0},
                        {"dcd", (bits & TIOCM_CAR) != 0}, {"ri", (bits & TIOCM_RNG) != 0}};
}

void SerialSession::set_lines(const LineActions& actions, DoneVoid done) {
  if (state_ != SessionState::Open) {
    done(std::unexpected(not_open_error()));
    return;
  }
  const int fd = stream_.native_handle();
  const std::string port = options_.port;
  const auto modem = [fd, port](int bit, bool on) -> std::function<Result<void>()> {
    return [=]() -> Result<void> {
      if (::ioctl(fd, on ? TIOCMBIS : TIOCMBIC, &bit) == 0) return {};
      return std::unexpected(os_failure(
          DomainError::WriteError,
          port + ": cannot set " + (bit == TIOCM_DTR ? "DTR" : "RTS") + " (a pseudo-terminal has no modem lines)"));
    };
  };
  const auto ioctl_step = [fd, port](unsigned long request, const char* what) -> std::function<Result<void>()> {
    return [=]() -> Result<void> {
      if (::ioctl(fd, request) == 0) return {};
      return std::unexpected(os_failure(DomainError::WriteError, port + ": " + what));
    };
  };
  auto steps = std::make_shared<std::deque<std::pair<std::function<Result<void>()>, Millis>>>();
  if (actions.dtr) steps->emplace_back(modem(TIOCM_DTR, *actions.dtr), Millis(0));
  if (actions.rts) steps->emplace_back(modem(TIOCM_RTS, *actions.rts), Millis(0));
  if (actions.pulse) {
    const int bit = *actions.pulse == "dtr" ? TIOCM_DTR : TIOCM_RTS;
    steps->emplace_back(modem(bit, true), actions.pulse_ms);
    steps->emplace_back(modem(bit, false), Millis(0));
  }
  if (actions.break_ms) {
    steps->emplace_back(ioctl_step(TIOCSBRK, "cannot start a break (TIOCSBRK)"), *actions.break_ms);
    steps->emplace_back(ioctl_step(TIOCCBRK, "cannot end a break (TIOCCBRK)"), Millis(0));
  }
  run_line_steps(std::move(steps), std::move(done));
}

// One step now, the next after its delay on a timer: the loop never sleeps.
void SerialSession::run_line_steps(std::shared_ptr<std::deque<std::pair<std::function<Result<void>()>, Millis>>> steps,
                                   DoneVoid done) {
  while (!steps->empty()) {
    if (state_ != SessionState::Open) {
      done(std::unexpected(not_open_error()));
      return;
    }
    auto [step, delay] = std::move(steps->front());
    steps->pop_front();
    if (auto result = step(); !result) {
      done(std::move(result));
      return;
    }
    if (delay.count() > 0) {
      line_timer_.expires_after(delay);
      line_timer_.async_wait(
          [self = shared_from_this(), steps, done = std::move(done)](boost::system::error_code ec) mutable {
            if (ec) {
              done(std::unexpected(self->not_open_error()));
              return;
            }
            self->run_line_steps(std::move(steps), std::move(done));
          });
      return;
    }
  }
  done({});
}

// ---- end of life ----

void SerialSession::device_gone(const std::string& reason) {
  if (state_ != SessionState::Open) return;
  state_ = SessionState::Disconnected;
  gone_reason_ = reason;
  boost::system::error_code ignored;
  stream_.close(ignored);  // releases the lock: the device may come back under a new session
  log::warn("session ", options_.id, ": ", options_.port, " disconnected (", reason, "); ", ring_.size(),
            " bytes still buffered");
  publish_event(
      EventKind::Log, "serial",
      {{"level", "warning"},
       {"message", "serial session " + options_.id + ": " + options_.port + " disconnected (" + reason + ")"}});
  quiet_timer_.cancel();
  line_timer_.cancel();
  fail_writes(not_open_error());
  service();
}

void SerialSession::close() {
  if (state_ == SessionState::Closed) return;
  if (state_ == SessionState::Open) ::tcflush(stream_.native_handle(), TCOFLUSH);
  state_ = SessionState::Closed;
  boost::system::error_code ignored;
  stream_.close(ignored);
  quiet_timer_.cancel();
  line_timer_.cancel();
  fail_writes(not_open_error());
  auto waiters = std::move(waiters_);
  waiters_.clear();
  for (auto& waiter : waiters) {
    waiter->deadline.cancel();
    waiter->done(std::unexpected(not_open_error()));
  }
}

}  // namespace mcpud::serial
