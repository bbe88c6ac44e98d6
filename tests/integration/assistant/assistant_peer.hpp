// SPDX-License-Identifier: MIT
// The backend's side of one voice-assistant session in the tests: the hello
// exchange, MCP requests in the {session_id, type:"mcp", payload} envelope, and
// the notifications mcpud pushes in between.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "assistant/ws_backend.hpp"

namespace mcpud::it {

class AssistantPeer {
 public:
  explicit AssistantPeer(std::shared_ptr<MessageConnection> connection, std::string transport = "websocket")
      : connection_(std::move(connection)), transport_(std::move(transport)) {}

  // The WebSocket under a WebSocket peer.
  WsConnection& connection() { return dynamic_cast<WsConnection&>(*connection_); }
  const json& device_hello() const { return hello_; }
  const std::string& session_id() const { return session_id_; }

  // Reads up to mcpud's next hello (failing the test if none comes) and answers
  // with the server hello of `session_id`.
  bool handshake(const std::string& session_id, Deadline deadline = 10s) {
    // Over MQTT the topic outlives sessions: the last messages of an earlier one may come first.
    std::optional<json> hello;
    while ((hello = connection_->receive(deadline)) && hello->value("type", "") != "hello") {
    }
    if (!hello) {
      ADD_FAILURE() << "no hello from mcpud";
      return false;
    }
    hello_ = *hello;
    session_id_ = session_id;
    connection_->send(json{{"type", "hello"}, {"transport", transport_}, {"session_id", session_id}}.dump());
    return true;
  }

  // The payload of the next message (a response or a notification), or nothing by the deadline.
  std::optional<json> next_payload(Deadline deadline = 10s) {
    auto message = connection_->receive(deadline);
    if (!message) return std::nullopt;
    return (*message)["payload"];
  }

  void send_mcp(const json& payload) {
    connection_->send(json{{"session_id", session_id_}, {"type", "mcp"}, {"payload", payload}}.dump());
  }

  // Sends a request and returns the payload of its response (null json if none
  // arrived); notifications read on the way are kept for notification().
  json request(const std::string& method, const json& params = json::object(), Deadline deadline = 10s) {
    const int id = next_id_++;
    send_mcp({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
    while (auto message = connection_->receive(deadline)) {
      EXPECT_EQ(message->value("type", ""), "mcp") << message->dump();
      EXPECT_EQ(message->value("session_id", ""), session_id_) << message->dump();
      const auto& payload = (*message)["payload"];
      if (payload.contains("id") && payload["id"] == id) return payload;
      if (payload.contains("method")) seen_.push_back(payload);
    }
    ADD_FAILURE() << "no response to " << method;
    return nullptr;
  }
  // The result of a request, failing the test on an error response.
  json result(const std::string& method, const json& params = json::object()) {
    auto response = request(method, params);
    EXPECT_TRUE(response.contains("result")) << method << ": " << response.dump();
    return response.value("result", json());
  }

  // The first notification `method` pushed since the last time it was taken
  // (earlier notifications of other methods stay in notifications()).
  std::optional<json> notification(const std::string& method, Deadline deadline = 10s) {
    for (;;) {
      for (auto it = seen_.begin(); it != seen_.end(); ++it) {
        if ((*it)["method"] == method) {
          auto found = *it;
          seen_.erase(it);
          return found;
        }
      }
      auto message = connection_->receive(deadline);
      if (!message) return std::nullopt;
      EXPECT_EQ(message->value("session_id", ""), session_id_) << message->dump();
      if (message->value("type", "") == "mcp" && (*message)["payload"].contains("method")) {
        seen_.push_back((*message)["payload"]);
      }
    }
  }
  const std::vector<json>& notifications() const { return seen_; }

 private:
  std::shared_ptr<MessageConnection> connection_;
  std::string transport_;
  json hello_;
  std::string session_id_;
  std::vector<json> seen_;
  int next_id_ = 1;
};

}  // namespace mcpud::it
