// SPDX-License-Identifier: MIT
// A WebSocket server on loopback (Boost.Beast, ws:// or wss://) playing a
// voice-assistant backend for the tests: it accepts mcpud's connections, keeps
// their upgrade headers, and lets the test send and wait for text messages with
// deadlines. Its own io thread; every member is safe to call from the test thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "support/deadline.hpp"

namespace mcpud::it {

using nlohmann::json;

struct TlsFiles {
  std::string certificate;  // PEM chain the server presents
  std::string key;          // its private key
};

// Whatever carries the backend's messages to and from mcpud (a WebSocket, MQTT topics).
class MessageConnection {
 public:
  virtual ~MessageConnection() = default;
  virtual void send(std::string text) = 0;
  // The next text message as JSON (a non-JSON one fails the test); nullopt on
  // timeout or once the connection is closed and every message was taken.
  virtual std::optional<json> receive(Deadline deadline = 10s) = 0;
};

class WsConnection : public MessageConnection {
 public:
  // Upgrade request headers by lower-case name, and the request target.
  virtual const std::map<std::string, std::string>& headers() const = 0;
  virtual const std::string& target() const = 0;
  // True once mcpud closed the connection (with a close frame or not).
  virtual bool wait_closed(Deadline deadline = 10s) = 0;
  // Ping frames received so far.
  virtual int pings() const = 0;
  // Hangs up without a close frame, as a crashed server or a lost network does.
  virtual void drop() = 0;
};

class WsBackend {
 public:
  // `reads_per_connection`: after that many messages a connection stops reading,
  // so it no longer answers pings either, as a hung server does.
  explicit WsBackend(std::optional<TlsFiles> tls = std::nullopt, std::size_t reads_per_connection = SIZE_MAX);
  ~WsBackend();
  WsBackend(const WsBackend&) = delete;
  WsBackend& operator=(const WsBackend&) = delete;

  int port() const;
  // The next connection whose WebSocket upgrade completed; nullptr on timeout.
  std::shared_ptr<WsConnection> accept(Deadline deadline = 15s);
  // The server name (SNI) the last TLS client asked for.
  std::string last_server_name() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcpud::it
