// SPDX-License-Identifier: MIT
// A host-built McpDevice on a memory stream, with helpers that send lines and parse replies.
#pragma once
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "McpU.h"

namespace mcpu_test {

using nlohmann::json;

inline void echoTool(McpArgs& args, McpReply& reply) {
  char text[32];
  if (!args.getString(F("text"), text, sizeof(text))) {
    reply.error(-32602, F("text too long"), F("TOO_LONG"));
    return;
  }
  reply.add(F("text"), text);
  reply.add(F("count"), args.getInt(F("count"), 1));
  reply.add(F("loud"), args.getBool(F("loud")));
}

inline void failTool(McpArgs&, McpReply& reply) { reply.error(-32000, F("sensor \"x\" offline"), F("READ_ERROR")); }

class DeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    mcpu_host::reset();
    mcpu_host::useManualClock(true);
    static const McpParam echo_params[] = {
        McpParam(F("text"), MCP_STRING, F("What to echo")),
        McpParam(F("count"), 1, 5, F("Repetitions"), false),
        McpParam(F("loud"), MCP_BOOLEAN, F("Shout"), false),
    };
    ASSERT_TRUE(device_.addPin(13, F("led"), MCP_DIGITAL_OUTPUT, F("Onboard LED")));
    ASSERT_TRUE(device_.addPin(A0, F("sensor"), MCP_ADC_INPUT, F("Light \"sensor\""),
                               McpBuffered(4, 100).withThreshold(200, 800, 50)));
    ASSERT_TRUE(device_.addPin(9, F("dimmer"), MCP_PWM_OUTPUT, F("PWM")));
    ASSERT_TRUE(device_.addPin(2, F("button"), MCP_DIGITAL_INPUT, F("Button"), McpEdges(10)));
    ASSERT_TRUE(device_.addPin(A1, F("plain"), MCP_ADC_INPUT, F("Not sampled")));
    ASSERT_TRUE(device_.addTool(F("echo"), F("Echo text"), echo_params, echoTool));
    ASSERT_TRUE(device_.addTool(F("fail"), F("Always fails"), failTool, McpPolling(2000)));
    device_.begin(stream_);
  }

  // Sends bytes and runs loop() until everything was read; returns the reply lines.
  std::vector<std::string> sendRaw(const std::string& bytes, size_t chunk = 0) {
    if (chunk == 0) chunk = bytes.size();
    for (size_t i = 0; i < bytes.size(); i += chunk) {
      stream_.input(bytes.substr(i, chunk));
      while (stream_.available() > 0) device_.loop();
    }
    std::vector<std::string> lines;
    std::string& out = stream_.output();
    size_t start = 0;
    for (size_t nl; (nl = out.find('\n', start)) != std::string::npos; start = nl + 1) {
      lines.push_back(out.substr(start, nl - start));
    }
    out.erase(0, start);
    return lines;
  }

  // One request line, exactly one JSON reply.
  json call(const std::string& line) {
    auto lines = sendRaw(line + "\n");
    EXPECT_EQ(lines.size(), 1u) << line;
    if (lines.size() != 1) return json();
    return json::parse(lines[0]);
  }

  json request(const std::string& method, const json& params = json::object(), int id = 1) {
    return call(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump());
  }

  void tick(unsigned long ms) {
    mcpu_host::advance(ms);
    device_.loop();
  }

  MemoryStream stream_;
  McpDevice device_{"test-dev", "9.9.9"};
};

}  // namespace mcpu_test
