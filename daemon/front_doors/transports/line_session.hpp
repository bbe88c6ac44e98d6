// SPDX-License-Identifier: MIT
// A client on any byte stream (TCP or unix socket, tty, stdio): newline framing
// in, JSON-RPC through the engine, replies and notifications out through one
// bounded write queue.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/line_framer.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/io/outgoing_bytes.hpp"
#include "mcpud/transports/session.hpp"

namespace mcpud::transports {

// Owned by a SessionSet through shared_ptr; pending operations hold a reference
// too, so the object outlives its last completion handler. Event loop only.
//
// Its input goes through named phases; a write in flight (the output side) is
// beside them:
//   reading  --lines read-------------------------> serving
//   reading  --end of input or a read error-------> draining
//   serving  --all served, nothing backed up------> reading
//   serving  --more lines than a turn's share-----> serving (on a later turn)
//   serving  --replies backed up or a batch open--> paused
//   paused   --replies read, the batch done-------> serving
//   draining --the last reply written-------------> closed
//   any      --close(): dropped, idle, write error> closed
template <class Stream>
class LineSession final : public Session, public rpc::Client, public std::enable_shared_from_this<LineSession<Stream>> {
 public:
  using ClosedHandler = std::function<void(Session&)>;
  enum class Phase {
    reading,   // a read is pending
    serving,   // lines of the last read are handed to the engine, now or on a later turn
    paused,    // lines wait in the buffer, the socket is not read: replies backed up, or a batch in progress
    draining,  // the client ended its input: its last replies are written, then it is closed
    closed,
  };

  LineSession(Stream stream, rpc::Engine& engine, SessionLimits limits, std::string peer, std::string transport,
              ClosedHandler on_closed)
      : stream_(std::move(stream)),
        engine_(engine),
        limits_(limits),
        framer_(limits.max_line_bytes),
        peer_(std::move(peer)),
        transport_(std::move(transport)),
        on_closed_(std::move(on_closed)) {
    caller.door = transport_;
    caller.peer = peer_;
    reply_bytes_limit = limits.queue_bytes;
  }

  // A network client: counted per address, and closed when silent for the
  // limits' idle_timeout.
  void set_network_address(std::string address) {
    address_ = std::move(address);
    if (limits_.idle_timeout.count() == 0) return;
    idle_timer_.emplace(stream_.get_executor());
    wait_for_idle(limits_.idle_timeout);
  }

  void start() { read_more(); }

  Phase phase() const { return phase_; }

  // Queues one reply line (the newline is added here). A reply larger than the
  // queue bound is refused before it gets here (the engine's reply budget); what
  // drops a client is a backlog: replies it has not read when the next comes.
  void send(std::string_view line) {
    if (closed()) return;
    if (outgoing_.size() > limits_.queue_bytes) {
      log::info(transport_, peer_, ": dropped: not reading (", outgoing_.size(),
                " bytes of replies unread, more than [limits] client_queue_bytes = ", limits_.queue_bytes, ")");
      close();
      return;
    }
    outgoing_.append(line);
    outgoing_.append("\n");
    if (!write_active_ && !holding_replies_) write_more();  // else serve_input() writes them at its turn's end
  }

  // Notifications share the reply queue and its bound.
  void push(std::string message) override { send(message); }

  // The rest of a long batch, on a later turn: the client's next lines wait
  // until its batch is served (one batch in progress per client).
  void defer(std::function<void()> next) override {
    ++deferred_;
    boost::asio::post(stream_.get_executor(), [weak = this->weak_from_this(), next = std::move(next)] {
      auto self = weak.lock();
      if (!self) return;
      --self->deferred_;
      if (self->closed()) return;
      next();
      if (self->phase_ == Phase::paused && !self->must_wait()) self->serve_input();
      self->close_if_finished();
    });
  }

  void close() override {
    if (closed()) return;
    phase_ = Phase::closed;
    state.reset();  // ends the client's subscriptions now, not when the last handler runs
    this->cancel_pending();
    if (idle_timer_) idle_timer_->cancel();
    boost::system::error_code ignored;
    stream_.close(ignored);
    if (on_closed_) on_closed_(*this);
  }

  // Why replies could not be written, when that ended the session (else no error).
  boost::system::error_code write_error() const { return write_error_; }

  const std::string& peer() const override { return peer_; }
  const std::string& transport() const override { return transport_; }
  const std::string& address() const override { return address_; }

 private:
  // Serving pauses while half the queue bound is unread: the lines already read
  // wait in read_buffer_ and the socket is not read, so a client that sends
  // faster than it reads is slowed down by TCP, not buffered here.
  bool backlogged() const { return outgoing_.size() >= limits_.queue_bytes / 2; }
  // Serving the next line waits for the replies to be read, or for the batch in progress.
  bool must_wait() const { return backlogged() || deferred_ > 0; }
  bool closed() const { return phase_ == Phase::closed; }

  // After the client ended its input: closes once the last reply is written.
  void close_if_finished() {
    if (phase_ == Phase::draining && !write_active_ && deferred_ == 0) close();
  }

  void read_more() {
    phase_ = Phase::reading;
    stream_.async_read_some(
        boost::asio::buffer(read_buffer_),
        [self = this->shared_from_this()](boost::system::error_code ec, std::size_t n) { self->on_read(ec, n); });
  }

  void on_read(boost::system::error_code ec, std::size_t n) {
    if (closed()) return;
    last_activity_ = std::chrono::steady_clock::now();
    if (ec) {
      if (ec != boost::asio::error::eof) log::debug(transport_, peer_, ": read: ", ec.message());
      // A peer that half-closes after its last request still gets its replies,
      // that of a last line without a newline too.
      phase_ = Phase::draining;
      if (ec == boost::asio::error::eof) framer_.finish(serve_line(), overflow());
      close_if_finished();
      return;
    }
    phase_ = Phase::serving;
    unserved_ = std::string_view(read_buffer_.data(), n);
    serve_input();
  }

  // What the framer calls with a complete line, and with an over-long one.
  auto serve_line() {
    return [this](std::string_view line) {
      engine_.handle_line(line, *this, [weak = this->weak_from_this()](std::string reply) {
        if (reply.empty()) return;  // its requests were cancelled: nothing to send
        if (auto self = weak.lock()) self->send(reply);
      });
    };
  }
  auto overflow() {
    return [this] { send(rpc::Engine::line_too_long(framer_.max_line_bytes())); };
  }

  // Hands the lines of the last read to the engine, one at a time, until the
  // replies back up; reads on once all are served. The replies to a read's
  // lines are held while more of its lines follow (the last one's goes out at
  // once, as a lone line's does), and a turn ends once it has queued
  // kTurnReplyBytes of them: they are written, and the rest of the read is
  // served on a later turn. So a client that pipelines gets replies while its
  // other lines are served and sends more meanwhile (else it waits for the
  // whole read's replies, then the daemon for its next lines), and one client's
  // read does not hold the loop.
  void serve_input() {
    const std::size_t queued_before = outgoing_.size();
    phase_ = Phase::serving;
    while (!unserved_.empty() && !closed() && !must_wait() && outgoing_.size() - queued_before < kTurnReplyBytes) {
      const auto newline = unserved_.find('\n');
      const auto take = newline == std::string_view::npos ? unserved_.size() : newline + 1;
      holding_replies_ = take < unserved_.size();
      framer_.feed(unserved_.substr(0, take), serve_line(), overflow());
      unserved_.remove_prefix(take);
    }
    holding_replies_ = false;
    if (closed()) return;
    if (!write_active_ && !outgoing_.empty()) write_more();
    if (!unserved_.empty() && !must_wait()) return serve_on_next_turn();
    if (!unserved_.empty() || must_wait()) {
      phase_ = Phase::paused;
    } else {
      read_more();
    }
  }

  // Serves the rest of the read after the handlers already queued (the write
  // just started among them); the phase stays serving, so nothing else resumes it meanwhile.
  void serve_on_next_turn() {
    boost::asio::post(stream_.get_executor(), [weak = this->weak_from_this()] {
      auto self = weak.lock();
      if (self && !self->closed()) self->serve_input();
    });
  }

  void write_more() {
    write_active_ = true;
    const auto bytes = outgoing_.next();
    boost::asio::async_write(
        stream_, boost::asio::buffer(bytes.data(), bytes.size()),
        [self = this->shared_from_this()](boost::system::error_code ec, std::size_t n) { self->on_written(ec, n); });
  }

  void on_written(boost::system::error_code ec, std::size_t n) {
    write_active_ = false;
    if (closed()) return;
    if (ec) {
      log::debug(transport_, peer_, ": write: ", ec.message());
      write_error_ = ec;
      close();
      return;
    }
    last_activity_ = std::chrono::steady_clock::now();
    outgoing_.consumed(n);
    if (phase_ == Phase::paused && !must_wait()) serve_input();
    // Serving may have closed the session or started the next write itself: a
    // second write beside it would send its bytes twice, interleaved.
    if (closed() || write_active_) return;
    if (!outgoing_.empty()) {
      write_more();
    } else {
      close_if_finished();
    }
  }

  // Closes the client once it has been silent for idle_timeout: nothing read or
  // written, and no call of its waiting for an answer (a long serial read is
  // not silence). A write that has not moved for that long is silence too: the
  // client reads nothing.
  void wait_for_idle(std::chrono::steady_clock::duration delay) {
    idle_timer_->expires_after(delay);
    idle_timer_->async_wait([weak = this->weak_from_this()](boost::system::error_code ec) {
      auto self = weak.lock();
      if (ec || !self || self->closed()) return;
      const auto timeout = self->limits_.idle_timeout;
      const auto silent = std::chrono::steady_clock::now() - self->last_activity_;
      if (silent < timeout || !self->in_flight->empty()) {
        return self->wait_for_idle(silent < timeout ? timeout - silent : timeout);
      }
      log::info(self->transport_, self->peer_, ": closed: silent for ", timeout.count(),
                " s ([limits] idle_timeout_s)");
      self->close();
    });
  }

  // Replies a turn of serve_input() queues before they are written (see there).
  static constexpr std::size_t kTurnReplyBytes = 4096;

  Stream stream_;
  rpc::Engine& engine_;
  SessionLimits limits_;
  LineFramer framer_;
  std::string peer_;
  std::string transport_;
  ClosedHandler on_closed_;
  // Not zeroed: only the bytes a read put there are ever looked at, so an idle
  // session holds just the pages its reads touched (a small request: one page),
  // not 16 KiB: what a thousand idle clients cost is mostly these buffers.
  std::array<char, 16 * 1024> read_buffer_;
  io::OutgoingBytes outgoing_;  // replies and notifications not yet written
  std::string address_;         // network clients only
  std::optional<boost::asio::steady_timer> idle_timer_;
  std::chrono::steady_clock::time_point last_activity_ = std::chrono::steady_clock::now();
  bool write_active_ = false;
  boost::system::error_code write_error_;
  std::string_view unserved_;  // lines of the last read not yet served (in read_buffer_)
  unsigned deferred_ = 0;      // slices of a batch waiting for their turn
  Phase phase_ = Phase::reading;
  bool holding_replies_ = false;  // within a turn of serve_input(), which writes them at its end
};

// Tells a client over a connection cap why it is hung up on (so it does not
// just see a reset), in the numbering of `codes`: it has not spoken yet, so its
// door's usual clients decide. Never blocks: what does not fit in the socket
// is dropped.
template <class Socket>
void refuse_client(Socket& socket, const std::string& why, ErrorCodes codes) {
  const auto refusal =
      rpc::error_response(nullptr, numbered_for(Error::domain(DomainError::TooManyClients, why), codes)) + "\n";
  boost::system::error_code ignored;
  socket.non_blocking(true, ignored);
  socket.write_some(boost::asio::buffer(refusal), ignored);
}

// Why a new client of `transport` from `address` (empty: a local transport) is
// refused, or nothing when it may connect.
inline std::optional<std::string> admission_refusal(const SessionSet& sessions, const std::string& transport,
                                                    const std::string& address, const SessionLimits& limits) {
  if (sessions.count(transport) >= limits.max_clients)
    return "Too many clients (limit " + std::to_string(limits.max_clients) + ", [limits] max_clients)";
  if (!address.empty() && sessions.count_from(transport, address) >= limits.max_clients_per_address)
    return "Too many clients from " + address + " (limit " + std::to_string(limits.max_clients_per_address) +
           ", [limits] max_clients_per_address)";
  return std::nullopt;
}

// Starts a LineSession for an accepted stream socket and adds it to `sessions`,
// or refuses it when `transport` is full or its `address` (network clients;
// empty for local ones) holds its share, numbering the refusal as `codes`.
template <class Socket>
void admit_client(Socket socket, const std::string& peer, const std::string& address, const std::string& transport,
                  rpc::Engine& engine, SessionSet& sessions, const SessionLimits& limits, ErrorCodes codes) {
  if (const auto refusal = admission_refusal(sessions, transport, address, limits)) {
    refuse_client(socket, *refusal, codes);
    log::info(transport, peer, ": refused: ", *refusal);
    return;
  }
  auto session = std::make_shared<LineSession<Socket>>(std::move(socket), engine, limits, peer, transport,
                                                       [&sessions, transport](Session& s) {
                                                         // The set, not the listener: a session may outlive its
                                                         // listener (reload).
                                                         log::debug(transport, s.peer(), ": disconnected");
                                                         sessions.remove(&s);
                                                       });
  if (!address.empty()) session->set_network_address(address);
  sessions.add(session);
  log::debug(transport, peer, ": connected");
  session->start();
}

}  // namespace mcpud::transports
