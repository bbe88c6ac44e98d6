// SPDX-License-Identifier: MIT
// A client on any byte stream (TCP or unix socket, tty, stdio): newline framing
// in, JSON-RPC through the engine, replies and notifications out through one
// bounded write queue.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
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
template <class Stream>
class LineSession final : public Session, public rpc::Client, public std::enable_shared_from_this<LineSession<Stream>> {
 public:
  using ClosedHandler = std::function<void(Session&)>;

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
  }

  void start() { read_more(); }

  // Queues one reply line (the newline is added here). A client whose queue
  // passes the limit is not reading: it is dropped so it cannot hold memory.
  void send(std::string_view line) {
    if (closed_) return;
    outgoing_.append(line);
    outgoing_.append("\n");
    if (outgoing_.size() > limits_.queue_bytes) {
      log::info(transport_, peer_, ": dropped, ", outgoing_.size(), " bytes of replies unread");
      close();
      return;
    }
    if (!write_active_) write_more();
  }

  // Notifications share the reply queue and its bound.
  void push(std::string message) override { send(message); }

  void close() override {
    if (closed_) return;
    closed_ = true;
    state.reset();  // ends the client's subscriptions now, not when the last handler runs
    this->cancel_pending();
    boost::system::error_code ignored;
    stream_.close(ignored);
    if (on_closed_) on_closed_(*this);
  }

  const std::string& peer() const override { return peer_; }
  const std::string& transport() const override { return transport_; }

 private:
  void read_more() {
    stream_.async_read_some(
        boost::asio::buffer(read_buffer_),
        [self = this->shared_from_this()](boost::system::error_code ec, std::size_t n) { self->on_read(ec, n); });
  }

  void on_read(boost::system::error_code ec, std::size_t n) {
    if (closed_) return;
    if (ec) {
      if (ec != boost::asio::error::eof) log::debug(transport_, peer_, ": read: ", ec.message());
      // A peer that half-closes after its last request still gets its replies.
      input_done_ = true;
      if (!write_active_) close();
      return;
    }
    auto respond = [weak = this->weak_from_this()](std::string reply) {
      if (auto self = weak.lock()) self->send(reply);
    };
    framer_.feed(
        std::string_view(read_buffer_.data(), n),
        [&](std::string_view line) { engine_.handle_line(line, *this, respond); },
        [&] { send(rpc::Engine::line_too_long(framer_.max_line_bytes())); });
    if (!closed_) read_more();
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
    if (closed_) return;
    if (ec) {
      log::debug(transport_, peer_, ": write: ", ec.message());
      close();
      return;
    }
    outgoing_.consumed(n);
    if (!outgoing_.empty()) {
      write_more();
    } else if (input_done_) {
      close();
    }
  }

  Stream stream_;
  rpc::Engine& engine_;
  SessionLimits limits_;
  LineFramer framer_;
  std::string peer_;
  std::string transport_;
  ClosedHandler on_closed_;
  std::array<char, 16 * 1024> read_buffer_{};
  io::OutgoingBytes outgoing_;  // replies and notifications not yet written
  bool write_active_ = false;
  bool input_done_ = false;
  bool closed_ = false;
};

// Tells a client over the connection cap why it is hung up on (so it does not
// just see a reset). Never blocks: what does not fit in the socket is dropped.
template <class Socket>
void refuse_client(Socket& socket, std::size_t max_clients) {
  const auto refusal =
      rpc::error_response(nullptr, Error::domain(DomainError::TooManyClients,
                                                 "Too many clients (limit " + std::to_string(max_clients) + ")")) +
      "\n";
  boost::system::error_code ignored;
  socket.non_blocking(true, ignored);
  socket.write_some(boost::asio::buffer(refusal), ignored);
}

// Starts a LineSession for an accepted stream socket and adds it to `sessions`,
// or refuses it when `transport` already has `limits.max_clients` clients.
template <class Socket>
void admit_client(Socket socket, const std::string& peer, const std::string& transport, rpc::Engine& engine,
                  SessionSet& sessions, const SessionLimits& limits) {
  if (sessions.count(transport) >= limits.max_clients) {
    refuse_client(socket, limits.max_clients);
    log::info(transport, peer, ": refused, ", limits.max_clients, " clients already connected");
    return;
  }
  auto session = std::make_shared<LineSession<Socket>>(std::move(socket), engine, limits, peer, transport,
                                                       [&sessions, transport](Session& s) {
                                                         // The set, not the listener: a session may outlive its
                                                         // listener (reload).
                                                         log::debug(transport, s.peer(), ": disconnected");
                                                         sessions.remove(&s);
                                                       });
  sessions.add(session);
  log::debug(transport, peer, ": connected");
  session->start();
}

// Accepts connections for as long as `acceptor` is open, handing each socket to
// `admit`. A failed accept (usually: out of descriptors) pauses 100 ms instead of
// spinning. The acceptor and the timer must outlive the loop; closing the
// acceptor ends it.
template <class Acceptor, class Admit>
void accept_loop(Acceptor& acceptor, boost::asio::steady_timer& retry_timer, std::string door, Admit admit) {
  acceptor.async_accept([&acceptor, &retry_timer, door = std::move(door), admit = std::move(admit)](
                            boost::system::error_code ec, typename Acceptor::protocol_type::socket socket) mutable {
    if (ec == boost::asio::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      log::warn(door, "accept: ", ec.message());
      retry_timer.expires_after(std::chrono::milliseconds(100));
      retry_timer.async_wait([&acceptor, &retry_timer, door, admit](boost::system::error_code wait_error) mutable {
        if (!wait_error && acceptor.is_open()) accept_loop(acceptor, retry_timer, std::move(door), std::move(admit));
      });
      return;
    }
    admit(std::move(socket));
    accept_loop(acceptor, retry_timer, std::move(door), std::move(admit));
  });
}

}  // namespace mcpud::transports
