// SPDX-License-Identifier: MIT
// JSON-RPC 2.0 request validation, dispatch, batches and response encoding.
#include "mcpud/core/json_rpc.hpp"
#include "mcpud/core/json_dispose.hpp"
#include "mcpud/core/json_text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <exception>
#include <vector>

#include "plain_request.hpp"
#include "request_scan.hpp"

namespace mcpud::rpc {
namespace {

using nlohmann::json;

// An id may be a string, an integer or null; anything else makes the request invalid.
bool valid_id(const json& id) { return id.is_string() || id.is_number_integer() || id.is_null(); }

}  // namespace

// A batch being served: its elements, and the replies collected to be sent as
// one array when the last arrives.
struct BatchReplies {
  nlohmann::json elements;
  std::vector<std::string> parts;
  std::size_t pending = 0;
  std::size_t bytes_left = 0;  // of the client's reply_bytes_limit, shared by the batch's replies
  bool has_request = false;    // a request, not only notifications: someone awaits an answer
  Responder respond;

  void finish_one(std::string part) {
    if (!part.empty()) parts.push_back(std::move(part));
    if (--pending > 0) return;
    if (parts.empty()) {
      // Only notifications: no reply at all. Requests all cancelled: "" tells
      // a transport that must answer the line (HTTP) that nothing will come.
      if (has_request) respond({});
      return;
    }
    std::string out = "[";
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (i > 0) out += ',';
      out += parts[i];
    }
    out += ']';
    respond(std::move(out));
  }
};

namespace {

// A batch's elements are served this many at a time, the rest on later turns
// of the event loop (Client::defer).
constexpr std::size_t kBatchSlice = 16;

// What a client gets instead of a result larger than its reply budget.
Error reply_too_large(std::string_view method, std::size_t bytes, std::size_t left, std::size_t limit, bool in_batch) {
  std::string message = "Reply too large: the result of '" + std::string(method) + "' is " + std::to_string(bytes) +
                        " bytes, more than the ";
  message += in_batch ? std::to_string(left) + " bytes left of the " + std::to_string(limit) +
                            " a batch's replies may take together"
                      : std::to_string(limit) + " bytes a reply may take";
  message += " ([limits] client_queue_bytes); the call itself was carried out";
  return Error::domain(DomainError::ReplyTooLarge, std::move(message));
}

// What a request that names a key twice gets: which value was meant is a guess.
Error repeated_error(const MarkedRepeat& repeated) {
  const std::string member(repeated.member);
  if (!repeated.nested) {
    return Error::invalid_request("Invalid request: member \"" + member + "\" appears more than once");
  }
  const std::string where = "key \"" + repeated.nested->substr(0, 100) + "\" appears more than once in one object";
  if (member == "params") return Error::invalid_params("Invalid params: " + where);
  return Error::invalid_request("Invalid request: " + where + " of \"" + member + "\"");
}

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

template <class Integer>
void append_integer(std::string& out, Integer value) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

// Appends `value` exactly as nlohmann's dump writes it, for what requests and
// replies mostly hold: objects, arrays, ASCII strings, integers, booleans and
// null. False (with `out` partly written) for anything else: floats (whose
// shortest form is the serializer's own), non-ASCII strings (checked and
// repaired as UTF-8 there), binary values, or nesting deeper than it goes.
// The serializer's set-up (localeconv() included) and its byte-by-byte UTF-8
// state machine cost more than the whole of a small reply.
bool append_plain(std::string& out, const json& value, std::size_t depth = 0) {
  constexpr std::size_t kMaxDepth = 128;
  switch (value.type()) {
    case json::value_t::null:
      out += "null";
      return true;
    case json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return true;
    case json::value_t::number_integer:
      append_integer(out, value.get<std::int64_t>());
      return true;
    case json::value_t::number_unsigned:
      append_integer(out, value.get<std::uint64_t>());
      return true;
    case json::value_t::string: {
      const auto& text = value.get_ref<const std::string&>();
      if (!is_ascii(text)) return false;
      append_json_string(out, text);
      return true;
    }
    case json::value_t::object: {
      if (depth >= kMaxDepth) return false;
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_ref<const json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!is_ascii(key)) return false;
        append_json_string(out, key);
        out += ':';
        if (!append_plain(out, member, depth + 1)) return false;
      }
      out += '}';
      return true;
    }
    case json::value_t::array: {
      if (depth >= kMaxDepth) return false;
      out += '[';
      bool first = true;
      for (const auto& element : value.get_ref<const json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!append_plain(out, element, depth + 1)) return false;
      }
      out += ']';
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

void append_dump(std::string& out, const json& value) {
  const std::size_t start = out.size();
  if (append_plain(out, value)) return;
  out.resize(start);
  out += value.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {
// What each byte becomes in a JSON string, by how many bytes it adds: none
// (itself), one (\" \\ \b \f \n \r \t) or five (another control
// character, as \u00xx).
constexpr auto kEscapeExtra = [] {
  std::array<unsigned char, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = 5;
  for (const unsigned char c : {'"', '\\', '\b', '\f', '\n', '\r', '\t'}) table[c] = 1;
  return table;
}();

// The letter after the backslash of a two-byte escape (\" \\ \b \f \n \r \t).
constexpr auto kShortEscape = [] {
  std::array<char, 256> table{};
  table['"'] = '"';
  table['\\'] = '\\';
  table['\b'] = 'b';
  table['\f'] = 'f';
  table['\n'] = 'n';
  table['\r'] = 'r';
  table['\t'] = 't';
  return table;
}();

// Writes the escape of `c` at `at` (kEscapeExtra[c] + 1 bytes); returns its end.
char* put_escaped(char* at, unsigned char c) {
  constexpr char kHex[] = "0123456789abcdef";
  *at++ = '\\';
  if (kEscapeExtra[c] == 1) {
    *at++ = kShortEscape[c];
    return at;
  }
  *at++ = 'u';
  *at++ = '0';
  *at++ = '0';
  *at++ = kHex[c >> 4];
  *at++ = kHex[c & 0xf];
  return at;
}

// Appends `text` as a JSON string to a string or to JsonBytes. Sized first,
// then written in place: a reply's text content is a serialized result, a
// quote every few bytes, and appending piece by piece cost more than the bytes.
template <class Bytes>
void append_json_string_to(Bytes& out, std::string_view text) {
  std::size_t extra = 0;
  for (const char c : text) extra += kEscapeExtra[static_cast<unsigned char>(c)];
  const std::size_t from = out.size();
  out.resize(from + text.size() + extra + 2);
  char* at = reinterpret_cast<char*>(out.data()) + from;
  *at++ = '"';
  if (extra == 0) {
    at = std::copy(text.begin(), text.end(), at);
  } else {
    // Byte by byte: the runs between a result's quotes are too short to copy
    // each with memcpy.
    for (const char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (kEscapeExtra[byte] == 0) {
        *at++ = c;
      } else {
        at = put_escaped(at, byte);
      }
    }
  }
  *at = '"';
}
}  // namespace

void append_json_string(std::string& out, std::string_view text) { append_json_string_to(out, text); }
void append_json_string(JsonBytes& out, std::string_view text) { append_json_string_to(out, text); }

void append_text(JsonBytes& out, std::string_view text) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  out.insert(out.end(), bytes, bytes + text.size());
}

std::string dump(const json& value) {
  std::string out;
  append_dump(out, value);
  return out;
}

void Client::notify(std::string_view method, const json& params) {
  std::string message = R"({"jsonrpc":"2.0","method":)";
  append_dump(message, method);
  message += R"(,"params":)";
  append_dump(message, params);
  message += '}';
  push(envelope_session ? wrap_envelope(*envelope_session, message) : std::move(message));
}

bool awaits_answer(const json& message) {
  if (!message.is_object() || !message.contains("id")) return false;
  return message.contains("method") || (!message.contains("result") && !message.contains("error"));
}

bool is_envelope(const json& message) {
  if (!message.is_object() || message.contains("jsonrpc")) return false;
  const auto type = message.find("type");
  const auto payload = message.find("payload");
  return type != message.end() && *type == "mcp" && payload != message.end() && message.contains("session_id");
}

std::string wrap_envelope(const json& session_id, std::string_view payload) {
  std::string out = R"({"session_id":)";
  out += dump(session_id);
  out += R"(,"type":"mcp","payload":)";
  out += payload;
  out += '}';
  return out;
}

namespace {
// Bytes a reply's text starts with room for: most replies fit.
constexpr std::size_t kReplyReserve = 256;
// Room for what a response puts around its result ({"jsonrpc":"2.0","id":,
// "result":, }: 33 bytes) and an id of up to 31.
constexpr std::size_t kResponseFrameReserve = 64;
// Marks the binary value that holds a serialized_result ('J'SON).
constexpr std::uint64_t kSerializedSubtype = 0x4a;

}  // namespace

json serialized_result(std::string_view json_text) {
  // Sized, then copied in one go: built from the char iterators, the bytes were
  // converted one at a time (a tenth of an MCP tools/call's instructions).
  JsonBytes bytes(json_text.size());
  if (!json_text.empty()) std::memcpy(bytes.data(), json_text.data(), json_text.size());
  return serialized_result(std::move(bytes));
}

json serialized_result(JsonBytes&& json_text) { return json::binary(std::move(json_text), kSerializedSubtype); }

bool is_serialized_result(const json& result) {
  return result.is_binary() && result.get_binary().has_subtype() && result.get_binary().subtype() == kSerializedSubtype;
}

json result_value(const json& result) {
  if (!is_serialized_result(result)) return result;
  const auto& bytes = result.get_binary();
  return json::parse(bytes.begin(), bytes.end(), nullptr, /*allow_exceptions=*/false);
}

std::string response(const json& id, const ToolResult& result) {
  if (!result) return error_response(id, result.error());
  const bool serialized = is_serialized_result(*result);
  std::string out;
  // One allocation for most replies, not one per doubling; a serialized
  // result's size is known.
  out.reserve(serialized ? kResponseFrameReserve + result->get_binary().size() : kReplyReserve);
  out += R"({"jsonrpc":"2.0","id":)";
  append_dump(out, id);
  out += R"(,"result":)";
  if (serialized) {
    const auto& bytes = result->get_binary();
    out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  } else {
    append_dump(out, *result);
  }
  out += '}';
  return out;
}

std::string error_response(const json& id, const Error& error) {
  json body = {{"code", error.code}, {"message", error.message}};
  if (!error.name.empty()) body["data"]["code"] = error.name;
  if (!error.uri.empty()) body["data"]["uri"] = error.uri;
  if (error.retry_after_ms != 0) body["data"]["retry_after_ms"] = error.retry_after_ms;
  if (!error.data_members.empty()) {
    auto members = json::parse(error.data_members, nullptr, false);
    if (members.is_object()) body["data"].update(members);
  }
  std::string out = R"({"jsonrpc":"2.0","id":)";
  append_dump(out, id);
  out += R"(,"error":)";
  append_dump(out, body);
  out += '}';
  return out;
}

std::string Engine::line_too_long(std::size_t max_line_bytes) {
  return error_response(nullptr, Error::invalid_request("Invalid request: line longer than " +
                                                        std::to_string(max_line_bytes) + " bytes"));
}

std::size_t nesting_depth(std::string_view text) { return scan_request_text(text).deepest; }

namespace {

// A valid request, ready for its method.
struct Call {
  json id;  // null for a notification
  bool notification = false;
  std::string_view method;
  json params;
};

// One request between its dispatch and its reply. Shared so that a handler
// that throws before replying still gets an answer out.
struct PendingReply {
  json id;
  bool notification;
  // Gets the reply, or "" for a request answered with nothing: a cancelled
  // one, and (unless `lone`, the responder of a request on a line of its own)
  // a notification (a batch counts those).
  Responder done;
  bool lone;
  std::string method;
  ErrorCodes codes;                // how the method's dialect numbers errors
  std::size_t limit;               // the client's reply_bytes_limit
  std::size_t own_budget = limit;  // a single message's budget: the whole limit
  std::size_t* budget = nullptr;   // own_budget, or the batch's
  CallCancellation cancellation;
  std::weak_ptr<Client::InFlight> in_flight;  // set while an answer is awaited (cancellable)
  std::string key;
  bool sent = false;

  void send(const ToolResult& result) {
    if (sent) return;
    sent = true;
    cancellation.on_cancel(nullptr);  // answered: nothing left to stop (and no cycle through the hook)
    if (auto waiting = in_flight.lock()) waiting->erase(key);
    if (notification) {
      if (!lone) done({});
      return;
    }
    // A cancelled request gets no response (MCP: the receiver SHOULD NOT send one).
    if (cancellation.cancelled()) return done({});
    std::string text = result ? response(id, result) : error_response(id, numbered_for(result.error(), codes));
    if (text.size() > *budget) {
      text = error_response(
          id, numbered_for(reply_too_large(method, text.size(), *budget, limit, budget != &own_budget), codes));
    }
    *budget -= std::min(*budget, text.size());
    done(std::move(text));
  }
};

// Hands a valid request to `handler` and sends its reply through `done` (see
// PendingReply) once it comes.
void dispatch_call(MethodHandler& handler, Client& client, Call call, Responder done, bool lone,
                   std::size_t* batch_budget) {
  auto pending = std::make_shared<PendingReply>(
      PendingReply{std::move(call.id), call.notification, std::move(done), lone, std::string(call.method),
                   handler.error_codes(call.method), client.reply_bytes_limit});
  pending->budget = batch_budget ? batch_budget : &pending->own_budget;
  pending->cancellation.set_request_id(&pending->id);
  {
    CallCancellation::Scope current(call.notification ? nullptr : &pending->cancellation);
    try {
      handler.handle(client, call.method, std::move(call.params), [pending](ToolResult&& result) {
        pending->send(result);
        if (result) dispose(*result);
      });
      dispose(call.params);  // what the method read in place and left (json_dispose.hpp)
    } catch (const std::exception& e) {
      pending->send(std::unexpected(Error::internal(std::string("Internal error: ") + e.what())));
    }
  }
  // Most calls answer at once; only one still waiting can be cancelled, so only
  // it is tracked (no cost on the pipelined hot path).
  if (!pending->sent && !call.notification) {
    pending->key = dump(pending->id);
    pending->in_flight = client.in_flight;
    client.in_flight->insert_or_assign(pending->key,
                                       std::shared_ptr<CallCancellation>(pending, &pending->cancellation));
  }
}

// The request of a plain line when it can go to its method as it is: valid,
// and not the one notification the engine serves itself.
std::optional<Call> plain_call(PlainRequest& request) {
  if (request.jsonrpc != "2.0" || !request.method) return std::nullopt;
  const bool notification = !request.id.has_value();
  if (notification && *request.method == "notifications/cancelled") return std::nullopt;
  return Call{notification ? json(nullptr) : std::move(*request.id), notification, *request.method,
              request.params ? std::move(*request.params) : json::object()};
}

}  // namespace

void Engine::handle_line(std::string_view line, Responder respond) {
  auto client = std::make_shared<DetachedClient>();
  handle_line(line, *client, [client, respond = std::move(respond)](std::string reply) { respond(std::move(reply)); });
}

void Engine::handle_line(std::string_view line, Client& client, Responder respond) {
  client.caller.takes_text_results = true;  // every result of this client goes out as text
  // Most lines are one plain request: only its params may need the parser,
  // and a valid one goes straight to its method. One read whole by the plain
  // reader names no member twice and holds no NUL, so when it nests no deeper
  // than allowed the scan below has nothing to find.
  auto plain = read_plain_request(line);
  const auto dispatched_plain = [&] {
    auto call = plain_call(*plain);
    if (call) dispatch_call(handler_, client, std::move(*call), std::move(respond), /*lone=*/true, nullptr);
    return call.has_value();
  };
  if (plain && plain->depth != 0 && plain->depth <= limits_.max_depth && dispatched_plain()) return;
  // One pass before parsing: the depth bound, and the members the parser would
  // keep only the last of.
  const auto scan = scan_request_text(line);
  if (scan.deepest > limits_.max_depth) {
    respond(error_response(nullptr, Error::invalid_request("Invalid request: JSON nested deeper than " +
                                                           std::to_string(limits_.max_depth) + " levels")));
    return;
  }
  // The parser stops at a NUL as at the end: bytes after it would be ignored silently.
  const bool has_nul = line.find('\0') != std::string_view::npos;
  if (has_nul || !scan.repeated.empty()) plain.reset();
  if (plain && plain->parsed_params && dispatched_plain()) return;
  json message = plain ? std::move(*plain).to_json() : json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded() || has_nul) {
    respond(error_response(nullptr, Error::parse_error("Parse error: not valid JSON")));
    return;
  }
  mark_repeated_members(message, scan.repeated);
  if (is_envelope(message)) {
    if (!scan.repeated_envelope_member.empty()) {
      respond(error_response(
          nullptr, Error::invalid_request("Invalid request: envelope member \"" +
                                          std::string(scan.repeated_envelope_member) + "\" appears more than once")));
      return;
    }
    // The envelope names the session; replies and later pushes go back inside it.
    client.envelope_session = message["session_id"];
    handle_parsed(message["payload"], client,
                  [session = message["session_id"], respond = std::move(respond)](std::string reply) {
                    respond(reply.empty() ? std::string{} : wrap_envelope(session, reply));
                  });
    return;
  }
  handle_parsed(message, client, std::move(respond));
}

void Engine::handle_parsed(json& message, Client& client, Responder respond) {
  if (!message.is_array()) {
    handle_message(message, client,
                   [respond = std::move(respond), request = awaits_answer(message)](std::string reply) {
                     if (!reply.empty() || request) respond(std::move(reply));
                   });
    return;
  }
  if (message.empty()) {
    respond(error_response(nullptr, Error::invalid_request("Invalid request: empty batch")));
    return;
  }
  if (message.size() > limits_.max_batch) {
    respond(
        error_response(nullptr, Error::invalid_request("Invalid request: batch of " + std::to_string(message.size()) +
                                                       " exceeds " + std::to_string(limits_.max_batch))));
    return;
  }
  auto batch = std::make_shared<BatchReplies>();
  batch->pending = message.size();
  batch->bytes_left = client.reply_bytes_limit;
  batch->has_request = std::any_of(message.begin(), message.end(), awaits_answer);
  batch->respond = std::move(respond);
  batch->elements = std::move(message);
  serve_batch(batch, client, 0);
}

void Engine::serve_batch(const std::shared_ptr<BatchReplies>& batch, Client& client, std::size_t from) {
  const std::size_t count = batch->elements.size();
  const std::size_t end = std::min(from + kBatchSlice, count);
  for (std::size_t i = from; i < end; ++i) {
    handle_message(
        batch->elements[i], client, [batch](std::string reply) { batch->finish_one(std::move(reply)); },
        &batch->bytes_left);
  }
  if (end < count) client.defer([this, batch, &client, end] { serve_batch(batch, client, end); });
}

// Validates one request object and dispatches it. `done` gets the serialized
// reply, or an empty string for a notification.
void Engine::handle_message(json& message, Client& client, Responder done, std::size_t* batch_budget) {
  if (!message.is_object()) {
    done(error_response(nullptr, Error::invalid_request("Invalid request: expected an object")));
    return;
  }
  const RequestMembers members(message);
  if (const auto repeated = repeated_member(message, members); !repeated.member.empty()) {
    // A notification is never answered, this refusal included (nor is a
    // cancellation whose requestId is in doubt carried out).
    if (members.id == message.end()) return done({});
    // Answered with the id unless the id is the member in doubt.
    const bool usable_id = repeated.member != "id" && members.id != message.end() && valid_id(*members.id);
    done(error_response(usable_id ? *members.id : json(nullptr), repeated_error(repeated)));
    return;
  }
  const auto id_it = members.id;
  const bool is_notification = id_it == message.end();
  json id = is_notification ? json(nullptr) : *id_it;
  if (!valid_id(id)) {
    done(error_response(nullptr, Error::invalid_request("Invalid request: id must be a string, an integer or null")));
    return;
  }
  const auto method_it = members.method;
  if (method_it == message.end() && (message.contains("result") || message.contains("error"))) {
    done({});  // a response from the peer; the daemon sends no requests, so nothing awaits it
    return;
  }
  const auto version_it = members.jsonrpc;
  std::string problem;
  if (version_it == message.end() || *version_it != "2.0") {
    problem = "Invalid request: jsonrpc must be \"2.0\"";
  } else if (method_it == message.end() || !method_it->is_string()) {
    problem = "Invalid request: method must be a string";
  }
  if (!problem.empty()) {
    done(error_response(id, Error::invalid_request(std::move(problem))));
    return;
  }
  json params = json::object();
  if (const auto params_it = members.params; params_it != message.end()) {
    if (!params_it->is_object()) {
      done(is_notification ? std::string{}
                           : error_response(id, Error::invalid_params("Invalid params: params must be an object")));
      return;
    }
    params = std::move(*params_it);
  }
  const std::string& method = method_it->get_ref<const std::string&>();
  if (is_notification && method == "notifications/cancelled") {
    cancel_request(client, params);
    done({});
    return;
  }
  dispatch_call(handler_, client, {std::move(id), is_notification, method, std::move(params)}, std::move(done),
                /*lone=*/false, batch_budget);
}

void Client::cancel_pending() {
  auto pending = std::move(*in_flight);  // cancel() answers, which erases from the map
  in_flight->clear();
  for (auto& [id, cancellation] : pending) cancellation->cancel();
}

void Engine::cancel_request(Client& client, const json& params) {
  const auto request_id = params.find("requestId");
  if (request_id == params.end()) return;
  const auto found = client.in_flight->find(dump(*request_id));
  if (found == client.in_flight->end()) return;  // answered already, or never sent: nothing to do
  auto cancellation = found->second;             // cancel() may answer, which erases the entry
  cancellation->cancel();
}

}  // namespace mcpud::rpc
