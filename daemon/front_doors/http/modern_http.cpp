// SPDX-License-Identifier: MIT
// Streamable HTTP's session-free path (2026-07-28 transports/streamable-http
// "Request Metadata", "Server Validation"): the checks, then the engine.
#include "modern_http.hpp"

#include <algorithm>
#include <array>
#include <memory>

#include "http_policy.hpp"

namespace mcpud::http {
namespace {

using nlohmann::json;

constexpr int kHeaderMismatch = -32020;
constexpr int kUnsupportedVersion = -32022;
constexpr std::string_view kMetaVersion = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view kMetaCapabilities = "io.modelcontextprotocol/clientCapabilities";

// The client a request is served as: it has no session. Only a
// subscriptions/listen request is given a stream, which its notifications go
// to; mcpud sends no request-scoped notifications on any other.
class RequestClient final : public rpc::Client {
 public:
  explicit RequestClient(std::weak_ptr<EventStream> stream = {}) : stream_(std::move(stream)) {}
  void push(std::string message) override {
    if (const auto stream = stream_.lock()) stream->send_event(message);
  }

 private:
  std::weak_ptr<EventStream> stream_;
};

ModernResponse refusal(unsigned status, const json& id, Error error) {
  return {status, false, rpc::error_response(id, error)};
}

Error header_mismatch(std::string_view header, std::string_view sent, std::string_view body) {
  return Error{kHeaderMismatch, "Header mismatch: " + std::string(header) + " header value '" +
                                    std::string(sent.substr(0, 200)) + "' does not match body value '" +
                                    std::string(body.substr(0, 200)) + "'"};
}

json string_list(const std::vector<std::string>& values) {
  json out = json::array();
  for (const auto& v : values) out.push_back(v);
  return out;
}

// The request's id when it is one a response may carry, else null.
json id_of(const json& message) {
  const auto it = message.find("id");
  if (it == message.end() || !(it->is_string() || it->is_number_integer())) return nullptr;
  return *it;
}

// The body member Mcp-Name mirrors, for the methods that have one.
std::optional<std::string_view> named_member(std::string_view method) {
  if (method == "tools/call" || method == "prompts/get") return "name";
  if (method == "resources/read") return "uri";
  return std::nullopt;
}

std::string_view string_member(const json& object, std::string_view key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>())
                                               : std::string_view();
}

// The headers against the body, in the order the specification lists its
// checks; the first refusal, or nothing when the request may be served.
std::optional<ModernResponse> check_headers(const ModernRequest& request, const ModernContext& context,
                                            const json& message, const json& id) {
  const auto method = string_member(message, "method");
  if (!request.method) return refusal(400, id, header_mismatch("Mcp-Method", "", method));
  if (*request.method != method) return refusal(400, id, header_mismatch("Mcp-Method", *request.method, method));
  if (std::ranges::find(context.modern, request.protocol_version) == context.modern.end()) {
    Error error{kUnsupportedVersion, "Unsupported protocol version: " + std::string(request.protocol_version)};
    error.data_members =
        rpc::dump(json{{"supported", string_list(context.versions)}, {"requested", request.protocol_version}});
    return refusal(400, id, std::move(error));
  }
  const json& params = message.contains("params") ? message["params"] : json::object();
  const json meta = params.is_object() ? params.value("_meta", json::object()) : json::object();
  const auto version = string_member(meta, kMetaVersion);
  if (version.empty())
    return refusal(400, id, Error::invalid_params("params._meta[\"" + std::string(kMetaVersion) + "\"]: required"));
  if (version != request.protocol_version)
    return refusal(400, id, header_mismatch("MCP-Protocol-Version", request.protocol_version, version));
  if (!meta.contains(kMetaCapabilities) || !meta[std::string(kMetaCapabilities)].is_object())
    return refusal(400, id,
                   Error::invalid_params("params._meta[\"" + std::string(kMetaCapabilities) +
                                         "\"]: required (an object; {} for none)"));
  if (const auto member = named_member(method)) {
    const auto named = string_member(params, *member);
    if (!request.name) return refusal(400, id, header_mismatch("Mcp-Name", "", named));
    const auto decoded = decode_header_value(*request.name);
    if (!decoded || *decoded != named) return refusal(400, id, header_mismatch("Mcp-Name", *request.name, named));
  }
  return std::nullopt;
}

// Whether `reply` (to the request `id`) is the error -32601: the method is not one
// mcpud serves, which Streamable HTTP answers 404. Read from the text the engine
// wrote, without parsing a reply again.
bool is_method_not_found(std::string_view reply, const json& id) {
  std::string prefix = R"({"jsonrpc":"2.0","id":)";
  rpc::append_dump(prefix, id);
  prefix += R"(,"error":{"code":-32601,)";
  return reply.starts_with(prefix);
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::optional<std::string> decode_header_value(std::string_view value) {
  constexpr std::string_view kOpen = "=?base64?", kClose = "?=";
  if (!value.starts_with(kOpen) || !value.ends_with(kClose) || value.size() < kOpen.size() + kClose.size())
    return std::string(value);
  auto text = value.substr(kOpen.size(), value.size() - kOpen.size() - kClose.size());
  while (text.ends_with('=')) text.remove_suffix(1);
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (const char c : text) {
    const int v = base64_value(c);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<unsigned>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

bool selects_modern_path(std::string_view header, const std::vector<std::string>& legacy_versions) {
  return !header.empty() && std::ranges::find(legacy_versions, header) == legacy_versions.end();
}

std::shared_ptr<rpc::Client> serve_modern(const ModernRequest& request, const ModernContext& context, ModernDone done) {
  const json message = json::parse(request.body, nullptr, false);
  if (message.is_discarded()) {
    done(refusal(400, nullptr, Error::parse_error("Parse error: not valid JSON")));
    return nullptr;
  }
  if (!message.is_object()) {
    done(refusal(400, nullptr,
                 Error::invalid_request("Invalid request: one JSON-RPC message per POST, an object (MCP 2026-07-28 "
                                        "has no batches)")));
    return nullptr;
  }
  const json id = id_of(message);
  if (!message.contains("method") || !message["method"].is_string()) {
    done(refusal(400, id, Error::invalid_request("Invalid request: a POST carries a JSON-RPC request (a method)")));
    return nullptr;
  }
  if (!message.contains("id")) {  // a notification: nothing in 2026-07-28 needs one over HTTP
    done({202, false, ""});
    return nullptr;
  }
  if (!accepts_mcp_reply(request.accept)) {
    done(refusal(406, id,
                 Error::invalid_request("POST /mcp answers with application/json or text/event-stream: Accept both")));
    return nullptr;
  }
  if (auto refused = check_headers(request, context, message, id)) {
    done(std::move(*refused));
    return nullptr;
  }
  // A listen's notifications are the response's SSE events, from its
  // acknowledgement on; it ends when the client closes the stream.
  const bool listens = message["method"] == "subscriptions/listen";
  auto client = std::make_shared<RequestClient>(listens ? context.stream : std::weak_ptr<EventStream>());
  client->caller.identity = std::make_shared<ClientIdentity>(ClientIdentity::Lifetime::OneRequest);
  client->caller.door = "http";
  client->caller.peer = context.peer;
  client->reply_bytes_limit = context.reply_bytes_limit;
  const bool sse =
      lists_media_type(request.accept, "text/event-stream") && !lists_media_type(request.accept, "application/json");
  // The engine parses the body again (it owns request parsing for every door);
  // the checks above read the headers' counterparts only.
  context.engine.handle_line(request.body, *client, [done = std::move(done), client, id, sse](std::string reply) {
    if (reply.empty()) return done({202, false, ""});  // cancelled
    const unsigned status = is_method_not_found(reply, id) ? 404 : 200;
    done({status, sse && status == 200, std::move(reply)});
  });
  return client;
}

}  // namespace mcpud::http
