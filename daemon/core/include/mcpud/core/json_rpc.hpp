// SPDX-License-Identifier: MIT
// The JSON-RPC 2.0 engine: turns one framed line (a request, a notification or a
// batch) into calls on a MethodHandler and the replies into one line of output.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcpud/core/error.hpp"
#include "mcpud/core/tool.hpp"

namespace mcpud::rpc {

// Serves methods; `reply` must be called exactly once, now or later.
class MethodHandler {
 public:
  virtual ~MethodHandler() = default;
  virtual void handle(std::string_view method, nlohmann::json params, ToolReply reply) = 0;
};

// Receives the serialized reply to one line (without the trailing newline). Not
// called at all for a notification or a batch of notifications.
using Responder = std::function<void(std::string)>;

struct EngineLimits {
  std::size_t max_depth = 64;        // nesting of arrays/objects in a request
  std::size_t max_batch = 1000;      // requests in one batch
};

// Stateless apart from its limits; one engine can serve many sessions.
class Engine {
 public:
  explicit Engine(MethodHandler& handler, EngineLimits limits = {}) : handler_(handler), limits_(limits) {}

  void handle_line(std::string_view line, Responder respond);

  // The reply to a line that exceeded the framing cap.
  static std::string line_too_long(std::size_t max_line_bytes);

 private:
  void handle_message(nlohmann::json& message, std::function<void(std::string)> done);

  MethodHandler& handler_;
  EngineLimits limits_;
};

// Serializes a success or error response for `id` (null allowed).
std::string response(const nlohmann::json& id, const ToolResult& result);
std::string error_response(const nlohmann::json& id, const Error& error);
// JSON text of a value; invalid UTF-8 in strings is replaced rather than thrown on.
std::string dump(const nlohmann::json& value);

// Deepest nesting of arrays/objects in a JSON text, found without parsing it.
std::size_t nesting_depth(std::string_view text);

}  // namespace mcpud::rpc
