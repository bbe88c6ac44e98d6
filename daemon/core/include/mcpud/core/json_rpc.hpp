// SPDX-License-Identifier: MIT
// The JSON-RPC 2.0 engine: turns one framed line (a request, a notification or a
// batch) into calls on a MethodHandler and the replies into one line of output.
// Event loop only (mcpud has one thread: docs/ARCHITECTURE.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcpud/core/call_cancellation.hpp"
#include "mcpud/core/error.hpp"
#include "mcpud/core/tool.hpp"

namespace mcpud::rpc {

// What a dialect keeps about one client (negotiated version, subscriptions, ...).
// Owned by the Client; destroyed when the client goes away.
class ClientState {
 public:
  virtual ~ClientState() = default;
};

// Whose conventions a client's door follows where the MCP specification leaves
// room. VoiceAssistant: the firmware of the voice-assistant uplink (seed 003),
// whose servers expect 2024-11-05 when they name no version and -32601 for an
// unknown tool.
enum class McpConventions { Standard, VoiceAssistant };

// One connected client as the dialects see it, whatever its transport: per-client
// state, and a path to push messages the client did not ask for (notifications).
// Event loop only.
class Client {
 public:
  virtual ~Client() = default;

  // Queues one serialized JSON-RPC message (without newline) to the client. The
  // transport bounds its queue; pushing to a closed client does nothing.
  virtual void push(std::string message) = 0;

  // Sends a notification {method, params}, inside the {session_id, type:"mcp",
  // payload} envelope when the client spoke through one.
  void notify(std::string_view method, const nlohmann::json& params);

  // Runs `next` on a later turn of the event loop, or never when the client is
  // gone by then: the engine serves a long batch in slices, so that one batch
  // of slow calls does not keep every other client waiting. At once by default
  // (one-shot callers, clients without a loop of their own).
  virtual void defer(std::function<void()> next) { next(); }

  // Dialect state, created by the dialect on first use.
  std::unique_ptr<ClientState> state;
  // The envelope's session_id, set once the client used the envelope.
  std::optional<nlohmann::json> envelope_session;
  McpConventions conventions = McpConventions::Standard;
  // Answered MCP `initialize`: gets tools/list_changed and log messages.
  bool mcp_initialized = false;
  // The door and peer this client calls tools as (set by its transport), and
  // its own identity: what it opens is its own (a transport sets door and peer
  // and leaves the identity alone).
  Caller caller{.identity = std::make_shared<ClientIdentity>()};
  // The most bytes the reply to one line may take (a batch's replies share it),
  // set by the transport from its queue bound. A result that would pass it is
  // answered with REPLY_TOO_LARGE instead: the client learns its call ran.
  std::size_t reply_bytes_limit = std::numeric_limits<std::size_t>::max();

  // The client's requests that have not answered yet, by id (serialized), so
  // notifications/cancelled can find them. Shared: answers outlive the client.
  using InFlight = std::map<std::string, std::shared_ptr<CallCancellation>>;
  std::shared_ptr<InFlight> in_flight = std::make_shared<InFlight>();
  // The client went away: stops what its requests still wait for (a serial
  // read must not hold the session's data for nobody).
  void cancel_pending();
};

// A client for callers without a connection (the daemon asking on its own
// behalf): pushes go nowhere.
class DetachedClient final : public Client {
 public:
  void push(std::string) override {}
};

// Serves methods; `reply` must be called exactly once, now or later. `client`
// outlives the call but not necessarily the reply.
class MethodHandler {
 public:
  virtual ~MethodHandler() = default;
  virtual void handle(Client& client, std::string_view method, nlohmann::json&& params, ToolReply&& reply) = 0;
  // The numbering of the error codes in a reply to `method`: its dialect's.
  virtual ErrorCodes error_codes(std::string_view /*method*/) const { return ErrorCodes::Mcpu; }
};

// Receives the serialized reply to one line (without the trailing newline). Not
// called at all for a notification or a batch of notifications; called with ""
// when the line's requests were all cancelled (notifications/cancelled, or the
// client left): no response is due, but a transport that answers every
// exchange (HTTP) learns that none will come.
using Responder = std::move_only_function<void(std::string) const>;

struct EngineLimits {
  std::size_t max_depth = 64;    // nesting of arrays/objects in a request
  std::size_t max_batch = 1000;  // requests in one batch
};

struct BatchReplies;  // a batch being served (json_rpc.cpp)

// Stateless apart from its limits; one engine can serve many sessions.
class Engine {
 public:
  explicit Engine(MethodHandler& handler, EngineLimits limits = {}) : handler_(handler), limits_(limits) {}

  // Serves one line from `client`. A {session_id, type:"mcp", payload} envelope is
  // unwrapped, and its reply wrapped in the same envelope.
  void handle_line(std::string_view line, Client& client, Responder respond);
  // For tests and one-shot callers: a client that drops pushes.
  void handle_line(std::string_view line, Responder respond);

  // The reply to a line that exceeded the framing cap.
  static std::string line_too_long(std::size_t max_line_bytes);

 private:
  void handle_parsed(nlohmann::json& message, Client& client, Responder respond);
  // Serves elements [from, from + a slice) of a batch, and defers the rest.
  void serve_batch(const std::shared_ptr<BatchReplies>& batch, Client& client, std::size_t from);
  // `batch_budget`: the bytes left for the replies of the batch `message` is in
  // (null for a single message, which has the client's whole limit).
  void handle_message(nlohmann::json& message, Client& client, Responder done, std::size_t* batch_budget = nullptr);
  // notifications/cancelled: stops the client's request params.requestId, if it still waits.
  void cancel_request(Client& client, const nlohmann::json& params);

  MethodHandler& handler_;
  EngineLimits limits_;
};

// Whether one message asks for an answer: an object with an id, valid or not,
// that is no peer's response (those have a result or an error and no method).
// Notifications and responses are not answered.
bool awaits_answer(const nlohmann::json& message);

// Whether `message` is the {session_id, type:"mcp", payload} envelope.
bool is_envelope(const nlohmann::json& message);
// `payload` (serialized) wrapped in the envelope of `session_id`.
std::string wrap_envelope(const nlohmann::json& session_id, std::string_view payload);

// A method's result that is already JSON text (a cached listing), so a reply
// copies it instead of serializing a value again. The Engine writes it as it
// is; a caller that reads results itself gets the value with result_value().
nlohmann::json serialized_result(std::string_view json_text);
// The same, taking bytes written in place (json_text.hpp) without a copy.
nlohmann::json serialized_result(std::vector<std::uint8_t>&& json_text);
bool is_serialized_result(const nlohmann::json& result);
// The value of a result, parsing a serialized_result back.
nlohmann::json result_value(const nlohmann::json& result);

// Serializes a success or error response for `id` (null allowed).
std::string response(const nlohmann::json& id, const ToolResult& result);
std::string error_response(const nlohmann::json& id, const Error& error);
// JSON text of a value; invalid UTF-8 in strings is replaced rather than thrown on.
std::string dump(const nlohmann::json& value);
// dump(), appended to `out`.
void append_dump(std::string& out, const nlohmann::json& value);

// Deepest nesting of arrays/objects in a JSON text, found without parsing it.
std::size_t nesting_depth(std::string_view text);

}  // namespace mcpud::rpc
