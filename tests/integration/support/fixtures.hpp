// SPDX-License-Identifier: MIT
// The fixture most tests share: mcpud on the built-in simulated board, listening
// on a kernel-chosen TCP port, with one connected client. Plus reply checks.
#pragma once

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "support/daemon_process.hpp"
#include "support/line_client.hpp"

namespace mcpud::it {

class SimDaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    port_ = daemon_.start_tcp();
    ASSERT_NE(port_, 0);
    client_ = connect();
    ASSERT_TRUE(client_.has_value()) << "cannot connect to mcpud on port " << port_;
  }

  std::optional<LineClient> connect(int receive_buffer = 0) {
    return LineClient::connect_tcp(port_, 5s, receive_buffer);
  }
  LineClient& client() { return *client_; }

  DaemonProcess daemon_;
  int port_ = 0;
  std::optional<LineClient> client_;
};

// Substring check with a readable failure message.
inline ::testing::AssertionResult contains(const std::string& haystack, const std::string& needle) {
  if (haystack.find(needle) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << needle << "' not found in: " << haystack;
}

// One request line as text.
inline std::string request_text(const std::string& method, const json& params, const json& id) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

// Checks an error reply: JSON-RPC code, and for domain errors error.data.code.
inline ::testing::AssertionResult is_error(const json& reply, int code, const std::string& name = {}) {
  if (!reply.is_object() || !reply.contains("error") || reply.contains("result")) {
    return ::testing::AssertionFailure() << "not an error reply: " << reply.dump();
  }
  const auto& error = reply["error"];
  if (error.value("code", 0) != code)
    return ::testing::AssertionFailure() << "expected code " << code << ": " << reply.dump();
  if (!error.contains("message") || !error["message"].is_string()) {
    return ::testing::AssertionFailure() << "error without a message: " << reply.dump();
  }
  if (!name.empty()) {
    if (!error.contains("data") || error["data"].value("code", "") != name) {
      return ::testing::AssertionFailure() << "expected error.data.code " << name << ": " << reply.dump();
    }
  }
  return ::testing::AssertionSuccess();
}

// MCP `initialize` with empty params: the first request of an MCP session.
inline const std::string kInitialize = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})";

}  // namespace mcpud::it
