// SPDX-License-Identifier: MIT
// A connection that carries whole text messages to and from one server (a
// WebSocket, an MQTT topic pair): what the voice-assistant session runs over.
// Event loop only.
#pragma once

#include <functional>
#include <string>

namespace mcpud::uplinks {

class MessageLink {
 public:
  struct Handlers {
    std::function<void()> on_open;                          // ready to carry messages
    std::function<void(std::string text)> on_message;       // one text message from the server
    std::function<void(const std::string& why)> on_closed;  // once, whether it had opened or not
  };

  virtual ~MessageLink() = default;

  // Connects; exactly one on_closed follows, sooner or later.
  virtual void open(Handlers handlers) = 0;
  // Queues one text message. Past the queue bound the link is closed (the server
  // is not reading) and false returned; false too once closing.
  virtual bool send(std::string text) = 0;
  // Sends what is queued, then closes (bounded in time). on_closed follows.
  virtual void close() = 0;
  // "wss://host:port/path" (without query or credentials), for logs and status.
  virtual const std::string& peer() const = 0;
};

}  // namespace mcpud::uplinks
