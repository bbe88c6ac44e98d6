// SPDX-License-Identifier: MIT
// An MQTT 3.1.1/5 client on the daemon's event loop: libmosquitto does the
// protocol, Asio watches its socket (reads always, writes only while the library
// has bytes to send) and one timer runs the keepalive housekeeping, so an idle
// connection wakes the daemon once per half keepalive and never otherwise. It
// connects without blocking (host names are resolved by Asio's resolver; with
// TLS libmosquitto looks the name up again, after it is known to resolve),
// reconnects forever with mcpud::Backoff, subscribes again after every
// reconnection and holds publishes made while disconnected in a bounded queue.
// Event loop only; not thread-safe.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>

#include "mcpud/mqtt/options.hpp"

namespace mcpud::mqtt {

class Client {
 public:
  // After each successful connection, once the subscriptions are renewed and
  // the queued messages handed over.
  using ConnectHandler = std::function<void()>;
  // After each lost connection and each failed attempt (refused, unreachable,
  // unresolvable; `reason` says why); a new attempt follows unless stop() is called.
  using DisconnectHandler = std::function<void(const std::string& reason)>;
  using MessageHandler = std::function<void(const Message&)>;

  // Throws std::runtime_error for options the library rejects (bad TLS files,
  // keepalive under 5 s).
  Client(boost::asio::io_context& io, Options options);
  // stop(), then the handle goes once the socket is flushed. The will is
  // published only when the process dies or the connection is lost.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  void on_connect(ConnectHandler handler);
  void on_disconnect(DisconnectHandler handler);
  void on_message(MessageHandler handler);

  // Starts connecting; returns at once.
  void start();
  // Publishes now when connected, else queues (see Options::max_queued). The
  // error says why a message was refused (queue full, bad topic, too large).
  std::expected<void, std::string> publish(Message message);
  // Subscribes now when connected, and again after every reconnection.
  std::expected<void, std::string> subscribe(const std::string& filter, int qos);
  // Stops reconnecting; waits (at most 1 s) until the broker acknowledged the
  // QoS 1/2 messages published before, then sends DISCONNECT (the broker then
  // does not publish the will). Returns at once.
  void stop();

  bool connected() const;
  // When the next connection attempt is due (Unix ms), while waiting to retry.
  std::optional<std::int64_t> next_attempt_ms() const;
  // Messages refused or pushed out of the queue so far.
  std::uint64_t dropped() const;

  class Session;

 private:
  std::shared_ptr<Session> session_;
};

}  // namespace mcpud::mqtt
