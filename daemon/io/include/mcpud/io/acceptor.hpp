// SPDX-License-Identifier: MIT
// A listening socket and the one loop that accepts on it, for every door that
// listens: TCP, the unix socket, HTTP. Event loop only.
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "mcpud/core/log.hpp"

namespace mcpud::io {

// Connections taken from the backlog in one turn of the event loop beyond the
// one that woke it: a turn can be long (other clients' batches), and one accept
// per turn made a newcomer wait behind every connection queued before it.
inline constexpr int kAcceptBurst = 64;

// Accepts on `acceptor` for as long as it is open, handing each socket to
// `admit`. A failed accept (usually: out of descriptors) pauses 100 ms instead of
// spinning. `acceptor` and `retry_timer` must outlive the loop; closing the
// acceptor ends it.
template <class SocketAcceptor, class Admit>
void accept_loop(SocketAcceptor& acceptor, boost::asio::steady_timer& retry_timer, std::string door, Admit admit) {
  acceptor.async_accept(
      [&acceptor, &retry_timer, door = std::move(door), admit = std::move(admit)](
          boost::system::error_code ec, typename SocketAcceptor::protocol_type::socket socket) mutable {
        if (ec == boost::asio::error::operation_aborted || !acceptor.is_open()) return;
        if (ec) {
          log::warn(door, "accept: ", ec.message());
          retry_timer.expires_after(std::chrono::milliseconds(100));
          retry_timer.async_wait([&acceptor, &retry_timer, door, admit](boost::system::error_code wait_error) mutable {
            if (!wait_error && acceptor.is_open())
              accept_loop(acceptor, retry_timer, std::move(door), std::move(admit));
          });
          return;
        }
        admit(std::move(socket));
        // The rest of the backlog, without waiting for another turn.
        boost::system::error_code pending_error;
        acceptor.non_blocking(true, pending_error);
        for (int i = 0; i < kAcceptBurst && !pending_error && acceptor.is_open(); ++i) {
          typename SocketAcceptor::protocol_type::socket pending(acceptor.get_executor());
          acceptor.accept(pending, pending_error);
          if (!pending_error) admit(std::move(pending));
        }
        accept_loop(acceptor, retry_timer, std::move(door), std::move(admit));
      });
}

// The listening socket of one door with its accept loop. The owner opens and
// binds socket() as its kind of address needs (io::listen_tcp for TCP), then
// calls start().
template <class Protocol>
class Acceptor {
 public:
  using SocketAcceptor = typename Protocol::acceptor;

  explicit Acceptor(boost::asio::io_context& io) : acceptor_(io), retry_timer_(io) {}

  SocketAcceptor& socket() { return acceptor_; }
  const SocketAcceptor& socket() const { return acceptor_; }

  // Accepts until close(), handing every connection to `admit` (which gets the
  // socket), logging failures under `door`.
  template <class Admit>
  void start(std::string door, Admit admit) {
    accept_loop(acceptor_, retry_timer_, std::move(door), std::move(admit));
  }

  // Stops accepting; connections already accepted are their owners' business.
  void close() {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    retry_timer_.cancel();
  }

 private:
  SocketAcceptor acceptor_;
  boost::asio::steady_timer retry_timer_;
};

}  // namespace mcpud::io
