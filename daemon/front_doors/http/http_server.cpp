// SPDX-License-Identifier: MIT
// Streamable HTTP: connections, MCP sessions over HTTP and their SSE streams.
#include "mcpud/http/http_server.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "host_rule.hpp"
#include "http_policy.hpp"
#include "http_session.hpp"
#include "mcpud/core/log.hpp"
#include "mcpud/io/acceptor.hpp"
#include "mcpud/io/outgoing_bytes.hpp"
#include "mcpud/io/tcp_endpoint.hpp"
#include "mcpud/web/assets.hpp"
#include "modern_http.hpp"
#include "safety_api.hpp"

namespace mcpud::http {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using boost::asio::ip::tcp;
using nlohmann::json;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr auto kRequestTimeout = std::chrono::seconds(30);
constexpr auto kIdleSession = std::chrono::minutes(10);
constexpr auto kIdleStreamSession = std::chrono::hours(1);
constexpr auto kSweepPeriod = std::chrono::minutes(1);
// SO_SNDBUF of an event stream (the kernel doubles it).
constexpr int kStreamSendBuffer = 32 * 1024;
// When a client refused for want of a session may try again.
constexpr std::string_view kRetryAfterSeconds = "5";
constexpr std::size_t kHeaderLimit = 16 * 1024;
// The most unparsed bytes a connection holds: a header, or a chunk's header or
// the trailer a chunked body ends with (which Beast's header and body limits do
// not bound), or the start of a pipelined request; body bytes are moved out as
// they are parsed.
constexpr std::size_t kReadBufferLimit = kHeaderLimit + 64 * 1024;

// What a plain HTTP request to an HTTPS listener is told.
constexpr std::string_view kPlainHttpRefusal =
    "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 58\r\nConnection: close\r\n\r\n"
    "This port speaks HTTPS: use an https:// URL to reach it.\r\n";

constexpr std::string_view kEventPrefix = "event: message\ndata: ";
constexpr std::string_view kEventSuffix = "\n\n";

std::size_t sse_event_size(std::string_view message) {
  return kEventPrefix.size() + message.size() + kEventSuffix.size();
}

std::string sse_event(std::string_view message) {
  std::string out(kEventPrefix);
  out += message;
  out += kEventSuffix;
  return out;
}

// Whether a parsed body holds at least one request (something that gets a
// reply), as the engine counts them: a batch's elements are not searched further.
bool has_request(const json& body) {
  const json& message = rpc::is_envelope(body) ? body["payload"] : body;
  if (message.is_array()) return std::any_of(message.begin(), message.end(), rpc::awaits_answer);
  return rpc::awaits_answer(message);
}

// The ids of the requests in a body (one message, a batch, or either in the envelope).
std::vector<json> request_ids(const json& body) {
  const json& message = rpc::is_envelope(body) ? body["payload"] : body;
  std::vector<json> ids;
  const auto add = [&](const json& m) {
    if (m.is_object() && m.contains("method") && m.contains("id")) ids.push_back(m["id"]);
  };
  if (message.is_array()) {
    for (const auto& m : message) add(m);
  } else {
    add(message);
  }
  return ids;
}

// Whether a reply (one response, or the payload of an enveloped one) is a success.
bool is_success(std::string_view reply) {
  const json parsed = json::parse(reply, nullptr, /*allow_exceptions=*/false);
  const json& response = rpc::is_envelope(parsed) ? parsed["payload"] : parsed;
  return response.is_object() && response.contains("result");
}

bool is_initialize(const json& body) {
  const json& message = rpc::is_envelope(body) ? body["payload"] : body;
  return message.is_object() && message.value("method", json()) == "initialize";
}

}  // namespace

struct HttpServer::State : std::enable_shared_from_this<HttpServer::State> {
  State(boost::asio::io_context& io, HttpOptions o, rpc::Engine& e)
      : options(std::move(o)), engine(e), acceptor(io), sweep_timer(io) {}

  // Starts a connection for an accepted socket (after the TLS handshake on an
  // HTTPS listener), or closes it at once when the server or the peer's address
  // holds its share.
  void admit(tcp::socket socket);
  bool has_room_for(const std::string& peer, const std::string& group) const;
  void connect(tcp::socket socket, std::string peer, std::string group);

  // How many sessions (connections) peers of `group` hold.
  std::size_t sessions_of(std::string_view group) const {
    return std::count_if(sessions.begin(), sessions.end(),
                         [&](const auto& entry) { return entry.second->group == group; });
  }
  std::size_t connections_of(std::string_view group) const;

  // The live session with this id, or null.
  std::shared_ptr<McpHttpSession> find(std::string_view id) {
    const auto it = sessions.find(std::string(id));
    return it == sessions.end() ? nullptr : it->second;
  }
  // Ends sessions that have had no request for a while: 10 minutes without a
  // stream, an hour with one (a host that keeps a stream open and never calls
  // again would hold its place for good).
  void expire_idle() {
    const auto now = std::chrono::steady_clock::now();
    const auto expired = std::erase_if(sessions, [&](auto& entry) {
      auto& session = *entry.second;
      const auto limit = session.has_stream() ? kIdleStreamSession : kIdleSession;
      const bool idle = session.in_flight->empty() && now - session.last_used > limit;
      if (idle) session.end();
      return idle;
    });
    if (expired > 0) sessions_changed();
  }

  // Makes room for a new session of `group` when its address (or the server)
  // holds its share: ends the address's least recently used idle session (one
  // without a call pending; one without a stream before one with), else the
  // server's. Hosts that never DELETE (most SDK clients) then cost their own
  // oldest session, not everyone's access. False when every session in the
  // way is busy.
  bool make_room_for(std::string_view group) {
    expire_idle();
    if (sessions_of(group) >= options.max_sessions_per_address) {
      return end_least_recently_used(group, "max_sessions_per_address");
    }
    if (sessions.size() >= options.max_sessions) return end_least_recently_used({}, "max_sessions");
    return true;
  }

  // Ends the least recently used idle session (of `group`, or of any address
  // when it is empty); false when there is none.
  bool end_least_recently_used(std::string_view group, std::string_view limit) {
    auto oldest = sessions.end();
    const auto rank = [](const McpHttpSession& s) { return std::pair(s.has_stream(), s.last_used); };
    for (auto it = sessions.begin(); it != sessions.end(); ++it) {
      const auto& session = *it->second;
      if (!session.in_flight->empty() || (!group.empty() && session.group != group)) continue;
      if (oldest == sessions.end() || rank(session) < rank(*oldest->second)) oldest = it;
    }
    if (oldest == sessions.end()) return false;
    log::info("http", "ended MCP session ", oldest->first, " of ", oldest->second->group,
              ", the least recently used, to make room ([http] ", limit, ")");
    oldest->second->end();
    sessions.erase(oldest);
    sessions_changed();
    return true;
  }

  // Looks for expired sessions once a minute while the server is open.
  void sweep_regularly() {
    sweep_timer.expires_after(kSweepPeriod);
    sweep_timer.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
      const auto state = weak.lock();
      if (ec || !state || state->closed) return;
      state->expire_idle();
      state->sweep_regularly();
    });
  }

  void sessions_changed() const {
    if (on_change) on_change(HttpServer::Change::sessions);
  }

  HttpOptions options;
  HostRule host_rule;  // set by open() from the bound address
  rpc::Engine& engine;
  io::Acceptor<tcp> acceptor;
  std::unordered_map<std::string, std::shared_ptr<McpHttpSession>> sessions;
  std::map<HttpConnection*, std::weak_ptr<HttpConnection>> connections;
  WrongKeys wrong_keys;  // the dashboard key's wrong guesses, by address
  boost::asio::steady_timer sweep_timer;
  std::function<void(HttpServer::Change)> on_change;
  bool closed = false;
};

// One HTTP/1.1 connection: requests in turn, or (after GET /mcp) an SSE stream.
// Its phases; a write of the stream's queue in flight and a wait on the peer
// while a call is pending are beside them:
//   reading    --a request that answers at once--------------> responding
//   reading    --a POST whose calls answer later--------------> answering
//   reading    --GET /mcp------------------------------------> streaming
//   answering  --the calls answered---------------------------> responding
//   answering  --an event for it (a 2026-07-28 listen)--------> streaming
//   responding --written, the connection kept alive----------> reading
//   streaming  --its listen answered (its last event)---------> ending
//   ending     --the queue written----------------------------> closed
//   any        --the peer left, a write failed, a bound passed> closed
class HttpConnection final : public EventStream, public std::enable_shared_from_this<HttpConnection> {
 public:
  enum class Phase {
    reading,     // waiting for a request (or the rest of one)
    answering,   // a POST's calls have not answered yet; a client that leaves cancels them
    responding,  // a response is written; then the next request, or the end
    streaming,   // an event stream: events are written as they come
    ending,      // the stream's last events are written, then the connection closes
    closed,
  };

  HttpConnection(tcp::socket socket, std::shared_ptr<HttpServer::State> state, std::string peer, std::string group)
      : stream_(std::move(socket)), state_(std::move(state)), peer_(std::move(peer)), group_(std::move(group)) {}

  // The peer's address (IPv6: its /64), which per-address limits count.
  const std::string& group() const { return group_; }

  void start() { read_request(); }

  void close() override {
    if (closed()) return;
    phase_ = Phase::closed;
    // Nobody is left to answer (a stream cut for its backlog, a failed write):
    // a call that waits would hold what it waits for, a listen its events.
    // Later: a cut comes while an event is delivered, to the listen it ends.
    if (!pending_ids_.empty())
      boost::asio::post(stream_.get_executor(), [self = shared_from_this()] { self->cancel_pending_calls(); });
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
    state_->connections.erase(this);
    if (state_->on_change) state_->on_change(HttpServer::Change::connection_closed);
  }

  // Queues one SSE event on the stream; a reader that falls too far behind is
  // cut off. A "look again" that still waits unwritten is not queued twice: a
  // stream nobody reads then costs one copy, not one per tool call.
  void send_event(std::string_view message) override {
    if (!streaming()) begin_event_stream("");
    if (says_look_again(message)) {
      const auto [waiting, fresh] = unwritten_look_agains_.try_emplace(std::string(message), 0);
      if (!fresh) return;
      waiting->second = queued_bytes_ + sse_event_size(message);
    }
    queue_raw(sse_event(message));
  }

 private:
  bool closed() const { return phase_ == Phase::closed; }
  bool streaming() const { return phase_ == Phase::streaming || phase_ == Phase::ending; }

  void read_request() {
    phase_ = Phase::reading;
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(state_->options.max_body_bytes);
    stream_.expires_after(kRequestTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_request(ec); });
  }

  void on_request(beast::error_code ec) {
    if (closed()) return;
    if (ec == http::error::body_limit) {
      return reply_error(http::status::payload_too_large,
                         "Request body larger than " + std::to_string(state_->options.max_body_bytes) + " bytes",
                         false);
    }
    if (ec == http::error::header_limit) {
      return reply_error(http::status::request_header_fields_too_large,
                         "Request header larger than " + std::to_string(kHeaderLimit) + " bytes", false);
    }
    if (ec == http::error::buffer_overflow) {
      return reply_error(
          http::status::bad_request,
          "Request framing (a chunk header or the trailer) longer than " + std::to_string(kReadBufferLimit) + " bytes",
          false);
    }
    if (ec) {
      if (ec != http::error::end_of_stream && ec != beast::error::timeout)
        log::debug("http", peer_, ": ", ec.message());
      return close();
    }
    request_ = parser_->release();
    stream_.expires_never();
    route();
  }

  void route() {
    const auto target = std::string_view(request_.target().data(), request_.target().size());
    const auto path = target.substr(0, target.find('?'));
    if (refuse_foreign_host() || refuse_foreign_origin()) return;
    const bool safety = path == kSafetyApiPath || path.starts_with(std::string(kSafetyApiPath) + "/");
    if (path != "/mcp" && !safety) return serve_page(path);
    // Two credentials: which one a proxy or an audit log saw is anyone's guess.
    if (request_.count(http::field::authorization) > 1) {
      return reply_error(http::status::bad_request, "More than one Authorization header");
    }
    if (safety) return serve_safety(path, target.substr(std::min(target.size(), path.size() + 1)));
    if (!bearer_accepted(header(http::field::authorization), state_->options.token)) {
      Response res = text_response(http::status::unauthorized, "Missing or wrong bearer token");
      res.set(http::field::www_authenticate, "Bearer");
      return send(std::move(res));
    }
    // One session per request: with two ids, which one a proxy saw is anyone's guess.
    if (const auto ids = request_.count("Mcp-Session-Id"); ids > 1) {
      return reply_error(http::status::bad_request, "More than one Mcp-Session-Id header");
    }
    if (selects_modern_path(header("MCP-Protocol-Version"), state_->options.protocol_versions)) return route_modern();
    if (const auto version = header("MCP-Protocol-Version"); !version.empty()) {
      const auto& known = state_->options.protocol_versions;
      if (std::find(known.begin(), known.end(), version) == known.end()) {
        return reply_error(http::status::bad_request, "Unsupported MCP-Protocol-Version: " + std::string(version));
      }
    }
    switch (request_.method()) {
      case http::verb::post:
        return handle_post();
      case http::verb::get:
        return handle_get();
      case http::verb::delete_:
        return handle_delete();
      default: {
        Response res = text_response(http::status::method_not_allowed, "Use POST, GET or DELETE on /mcp");
        res.set(http::field::allow, "POST, GET, DELETE");
        return send(std::move(res));
      }
    }
  }

  // 2026-07-28's session-free path: POST only (no GET stream, no session to
  // DELETE), and every refusal a JSON-RPC error body.
  void route_modern() {
    if (request_.method() != http::verb::post) {
      Response res = json_response(
          http::status::method_not_allowed,
          rpc::error_response(nullptr, Error::invalid_request("MCP " + std::string(header("MCP-Protocol-Version")) +
                                                              " is served by POST /mcp alone")));
      res.set(http::field::allow, "POST");
      return send(std::move(res));
    }
    if (!is_json_media_type(header(http::field::content_type))) {
      return send_json(http::status::unsupported_media_type,
                       rpc::error_response(nullptr, Error::invalid_request("Content-Type must be application/json")));
    }
    if (const auto encoding = header(http::field::content_encoding); !encoding.empty() && encoding != "identity") {
      return send_json(http::status::unsupported_media_type,
                       rpc::error_response(
                           nullptr, Error::invalid_request("Content-Encoding " + std::string(encoding.substr(0, 100)) +
                                                           " is not accepted: send JSON as it is")));
    }
    const auto optional_header = [this](std::string_view name) -> std::optional<std::string_view> {
      if (request_.find(beast::string_view(name.data(), name.size())) == request_.end()) return std::nullopt;
      return header(name);
    };
    const ModernRequest request{request_.body(), header("MCP-Protocol-Version"), optional_header("Mcp-Method"),
                                optional_header("Mcp-Name"), header(http::field::accept)};
    std::vector<std::string> versions = state_->options.modern_protocol_versions;
    versions.insert(versions.end(), state_->options.protocol_versions.rbegin(),
                    state_->options.protocol_versions.rend());
    const ModernContext context{state_->engine,
                                std::move(versions),
                                state_->options.modern_protocol_versions,
                                peer_.substr(0, peer_.rfind(':')),
                                state_->options.queue_bytes,
                                weak_from_this()};
    phase_ = Phase::answering;
    pending_ids_ = {json()};  // its id is read only if it does not answer at once
    auto client = serve_modern(request, context, [self = shared_from_this()](ModernResponse response) {
      if (self->closed()) return;
      self->pending_ids_.clear();
      if (self->streaming()) return self->end_event_stream(response.body);
      self->stop_watching_peer();
      if (response.sse) return self->send_sse_reply(response.body);
      const auto status = static_cast<http::status>(response.status);
      if (response.body.empty()) return self->send(self->text_response(status, ""));
      self->send_json(status, std::move(response.body));
    });
    if (pending_ids_.empty()) return;
    pending_client_ = client;
    const json body = json::parse(request_.body(), nullptr, false);
    pending_ids_ = {body.is_object() ? body.value("id", json()) : json()};
    watch_peer_while_waiting();
  }

  // The dashboard's safety controls, behind their own token (safety_api.hpp).
  void serve_safety(std::string_view path, std::string_view query) {
    const auto method = request_.method_string();
    const SafetyApiRequest request{std::string_view(method.data(), method.size()),
                                   path,
                                   query,
                                   header(http::field::authorization),
                                   header(http::field::content_type),
                                   request_.body(),
                                   "dashboard " + peer_.substr(0, peer_.rfind(':'))};
    const auto& options = state_->options;
    const auto now = WrongKeys::Clock::now();
    if (const auto wait = state_->wrong_keys.wait_s(group_, now); wait > 0) {
      Response res = json_response(http::status::too_many_requests,
                                   json{{"error", "Too many wrong dashboard keys from " + group_ + ": try again in " +
                                                      std::to_string(wait) + " s"}}
                                       .dump());
      res.set(http::field::retry_after, std::to_string(wait));
      return send(std::move(res));
    }
    auto answer = serve_safety_api(request, options.safety, options.dashboard_token);
    if (answer.status == 401) state_->wrong_keys.note(group_, now);
    Response res = json_response(static_cast<http::status>(answer.status), std::move(answer.body));
    res.set(http::field::cache_control, "no-store");
    if (answer.challenge) res.set(http::field::www_authenticate, "Bearer realm=\"mcpud dashboard\"");
    if (!answer.allow.empty())
      res.set(http::field::allow, beast::string_view(answer.allow.data(), answer.allow.size()));
    send(std::move(res));
  }

  // A Host this listener does not answer to: a page whose name was pointed at
  // this machine (DNS rebinding). Malformed or ambiguous Host: 400 (RFC 9112 3.2).
  bool refuse_foreign_host() {
    std::vector<std::string_view> hosts;
    for (auto [it, end] = request_.equal_range(http::field::host); it != end; ++it)
      hosts.emplace_back(it->value().data(), it->value().size());
    const auto shown = [&] { return std::string(hosts.front().substr(0, 200)); };
    switch (judge_host(hosts, state_->host_rule)) {
      case HostVerdict::accepted:
        return false;
      case HostVerdict::missing:
        reply_error(http::status::bad_request, "Missing Host header");
        break;
      case HostVerdict::repeated:
        reply_error(http::status::bad_request, "More than one Host header");
        break;
      case HostVerdict::malformed:
        reply_error(http::status::bad_request, "Malformed Host header: " + shown());
        break;
      case HostVerdict::not_allowed:
        reply_error(http::status::misdirected_request,
                    "Host not allowed: " + shown() +
                        " (this listener answers to loopback names, its own address and [http] allowed_hosts)");
        break;
    }
    return true;
  }

  // Every Origin header, not just the first: a browser sends one, so two is a trick.
  bool refuse_foreign_origin() {
    for (auto [it, end] = request_.equal_range(http::field::origin); it != end; ++it) {
      const std::string_view origin(it->value().data(), it->value().size());
      const auto shown = std::string(origin.substr(0, 200));
      switch (judge_origin(origin, state_->options.allowed_origins)) {
        case OriginVerdict::accepted:
          continue;
        case OriginVerdict::malformed:
          reply_error(http::status::bad_request, "Malformed Origin header: '" + shown + "' (scheme://host[:port])");
          return true;
        case OriginVerdict::not_allowed:
          reply_error(http::status::forbidden, "Origin not allowed: " + shown);
          return true;
      }
    }
    return false;
  }

  // The dashboard's files: public (they hold nothing of the board; its data
  // comes through /mcp with the token), never framed by another site.
  void serve_page(std::string_view path) {
    const auto* asset = web::find_asset(path);
    if (!asset) return reply_error(http::status::not_found, "Not found: use /mcp, or / for the dashboard");
    if (request_.method() != http::verb::get && request_.method() != http::verb::head) {
      Response res = text_response(http::status::method_not_allowed, "Use GET");
      res.set(http::field::allow, "GET, HEAD");
      return send(std::move(res));
    }
    Response res{http::status::ok, request_.version()};
    res.set(http::field::server, "mcpud");
    const auto beast_view = [](std::string_view s) { return beast::string_view(s.data(), s.size()); };
    res.set(http::field::content_type, beast_view(asset->content_type));
    res.set(http::field::cache_control, "no-cache");
    res.set(http::field::etag, beast_view(asset->etag));
    for (const auto& [name, value] : web::kSecurityHeaders) res.set(beast_view(name), beast_view(value));
    if (header(http::field::if_none_match) == asset->etag) {
      res.result(http::status::not_modified);
    } else {
      res.body() = std::string(asset->body);  // measured for HEAD too, then left out by send()
    }
    send(std::move(res));
  }

  void handle_post() {
    if (!is_json_media_type(header(http::field::content_type))) {
      return reply_error(http::status::unsupported_media_type, "Content-Type must be application/json");
    }
    // A compressed body would be parsed as if it were JSON text.
    if (const auto encoding = header(http::field::content_encoding); !encoding.empty() && encoding != "identity") {
      return reply_error(
          http::status::unsupported_media_type,
          "Content-Encoding " + std::string(encoding.substr(0, 100)) + " is not accepted: send JSON as it is");
    }
    const json body = json::parse(request_.body(), nullptr, false);
    if (body.is_discarded()) {
      // The engine's own refusal, as a line transport gets it (-32600 for
      // nesting past its bound, else -32700); it calls no method on such text.
      std::string refusal = rpc::error_response(nullptr, Error::parse_error("Parse error: not valid JSON"));
      state_->engine.handle_line(request_.body(), [&refusal](std::string reply) { refusal = std::move(reply); });
      return send_json(http::status::bad_request, std::move(refusal));
    }
    // Checked before a session is made: an initialize whose answer the client
    // refuses would leave one behind.
    if (has_request(body) && !accepts_mcp_reply(header(http::field::accept))) {
      return reply_error(http::status::not_acceptable,
                         "POST /mcp answers with application/json or text/event-stream: Accept one of them");
    }
    const bool opens_session = header("Mcp-Session-Id").empty();
    auto session = session_for_post(body);
    if (!session) return;
    session->last_used = std::chrono::steady_clock::now();
    session_id_ = session->id();
    if (!has_request(body)) {
      // Notifications and responses get no answer: 202. A message that is
      // neither (`{}`, `[1]`, a batch too long) is refused at once: 400 with
      // the engine's error. Shared: a batch's refusal waits for its slowest
      // notification, which may answer after this returns.
      auto refusal = std::make_shared<std::string>();
      state_->engine.handle_line(request_.body(), *session,
                                 [refusal](std::string reply) { *refusal = std::move(reply); });
      if (!refusal->empty()) return send_json(http::status::bad_request, std::move(*refusal));
      return send(text_response(http::status::accepted, ""));
    }
    const bool sse = wants_sse();
    phase_ = Phase::answering;
    pending_client_ = session;
    pending_ids_ = request_ids(body);
    // The callback owns the connection: a tool that answers later (a serial read
    // that waits, a bridged call) must still find it to write the response.
    state_->engine.handle_line(request_.body(), *session,
                               [self = shared_from_this(), sse, opens_session](std::string reply) {
                                 // An initialize that failed opens no session: kept, a client repeating a
                                 // bad one would fill max_sessions_per_address for the idle timeout.
                                 if (opens_session && !is_success(reply)) self->end_session(self->session_id_);
                                 if (self->closed()) return;
                                 self->pending_ids_.clear();
                                 self->stop_watching_peer();
                                 // Its requests were all cancelled: no response is due (MCP),
                                 // and the exchange ends as one that carried none.
                                 if (reply.empty()) return self->send(self->text_response(http::status::accepted, ""));
                                 if (sse) return self->send_sse_reply(reply);
                                 self->send_json(http::status::ok, std::move(reply));
                               });
    if (!pending_ids_.empty()) watch_peer_while_waiting();
  }

  // While a call is pending, notices a client that goes away so the connection
  // closes at once; the call's late reply then finds it closed and is dropped.
  // Peeks without consuming, so a pipelined next request stays for read_request.
  void watch_peer_while_waiting() {
    watching_peer_ = true;
    const auto generation = ++watch_generation_;
    stream_.socket().async_wait(
        tcp::socket::wait_read, [self = shared_from_this(), generation](boost::system::error_code ec) {
          if (generation != self->watch_generation_ || !self->watching_peer_ || self->closed()) return;
          self->watching_peer_ = false;
          if (ec) return self->close();
          char probe;
          boost::system::error_code peek_error;
          const auto n =
              self->stream_.socket().receive(boost::asio::buffer(&probe, 1), tcp::socket::message_peek, peek_error);
          if (peek_error == boost::asio::error::would_block) return self->watch_peer_while_waiting();
          if (peek_error || n == 0) {
            log::debug("http", self->peer_, ": client left while its call was pending");
            self->cancel_pending_calls();
            return self->close();
          }
          // Bytes of a pipelined request: they wait in the socket for read_request.
        });
  }

  // The POST's calls have nobody to answer to: stop what they wait for (a serial
  // read would otherwise hold the session's data until its timeout).
  void cancel_pending_calls() {
    auto session = pending_client_.lock();
    if (!session) return;
    const auto ids = pending_ids_;  // each cancel() answers, and the answer clears pending_ids_
    for (const auto& id : ids) {
      const auto found = session->in_flight->find(rpc::dump(id));
      if (found == session->in_flight->end()) continue;
      auto cancellation = found->second;  // cancel() answers, which erases the entry
      cancellation->cancel();
    }
  }

  void stop_watching_peer() {
    if (!watching_peer_) return;
    watching_peer_ = false;
    boost::system::error_code ignored;
    stream_.socket().cancel(ignored);
  }

  // The session a POST belongs to; a new one for initialize. Replies with the error itself when there is none.
  std::shared_ptr<McpHttpSession> session_for_post(const json& body) {
    const auto id = header("Mcp-Session-Id");
    if (!id.empty()) {
      auto session = state_->find(id);
      if (!session) reply_error(http::status::not_found, "Unknown or ended session: initialize again");
      return session;
    }
    if (!is_initialize(body)) {
      reply_error(http::status::bad_request, "Missing Mcp-Session-Id header: send initialize first");
      return nullptr;
    }
    const auto& options = state_->options;
    if (!state_->make_room_for(group_)) {
      const bool mine = state_->sessions_of(group_) >= options.max_sessions_per_address;
      Response res = text_response(http::status::service_unavailable,
                                   mine ? "Too many MCP sessions from " + group_ + " with a call pending (limit " +
                                              std::to_string(options.max_sessions_per_address) +
                                              ", [http] max_sessions_per_address)"
                                        : "Too many MCP sessions with a call pending (limit " +
                                              std::to_string(options.max_sessions) + ", [http] max_sessions)");
      res.set(http::field::retry_after, beast::string_view(kRetryAfterSeconds.data(), kRetryAfterSeconds.size()));
      log::debug("http", peer_, ": 503 ", res.body());
      send(std::move(res));
      return nullptr;
    }
    auto session = std::make_shared<McpHttpSession>(new_session_id(), options.queue_bytes);
    session->set_executor(stream_.get_executor());
    session->caller.peer = peer_.substr(0, peer_.rfind(':'));  // the port changes with every connection
    session->group = group_;
    state_->sessions.emplace(session->id(), session);
    state_->sessions_changed();
    log::debug("http", peer_, ": new MCP session ", session->id());
    return session;
  }

  void handle_get() {
    if (!lists_media_type(header(http::field::accept), "text/event-stream")) {
      return reply_error(http::status::not_acceptable, "GET /mcp is an event stream: Accept text/event-stream");
    }
    auto session = state_->find(header("Mcp-Session-Id"));
    if (!session)
      return reply_error(header("Mcp-Session-Id").empty() ? http::status::bad_request : http::status::not_found,
                         "GET /mcp needs the Mcp-Session-Id of a live session");
    if (session->has_stream()) return reply_error(http::status::conflict, "This session already has an event stream");
    session->last_used = std::chrono::steady_clock::now();
    begin_event_stream("Mcp-Session-Id: " + session->id() + "\r\n");
    session->attach(shared_from_this());
    read_until_closed();
  }

  // Answers with an event stream: the headers now, the events as they come,
  // its end when the connection closes (no length, no chunks).
  void begin_event_stream(std::string_view extra_headers) {
    phase_ = Phase::streaming;
    // The kernel's own buffer grows to megabytes on a fast link and would hide a
    // reader that stopped from the queue bound below: keep it small.
    boost::system::error_code ignored;
    stream_.socket().set_option(boost::asio::socket_base::send_buffer_size(kStreamSendBuffer), ignored);
    std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nX-Accel-Buffering: "
        "no\r\nConnection: close\r\n";
    head += extra_headers;
    head += "\r\n";
    queue_raw(head);
  }

  // A listen answered (mcpud ended it, or the client did): its last event, if
  // any, then the connection closes.
  void end_event_stream(std::string_view last) {
    watching_peer_ = false;  // no cancel(): it would abort the writes still queued
    if (!last.empty()) queue_raw(sse_event(last));
    phase_ = Phase::ending;
    if (!write_active_) close();
  }

  void handle_delete() {
    const auto id = std::string(header("Mcp-Session-Id"));
    if (id.empty()) return reply_error(http::status::bad_request, "Missing Mcp-Session-Id header: which session?");
    if (!end_session(id)) return reply_error(http::status::not_found, "Unknown or ended session");
    send(text_response(http::status::ok, ""));
  }

  // Ends session `id` (its stream, subscriptions and waiting calls) and stops
  // naming it on this connection's response; false if there is none.
  bool end_session(const std::string& id) {
    const auto it = state_->sessions.find(id);
    if (it == state_->sessions.end()) return false;
    it->second->end();
    state_->sessions.erase(it);
    state_->sessions_changed();
    if (session_id_ == id) session_id_.clear();
    log::debug("http", peer_, ": ended MCP session ", id);
    return true;
  }

  // A stream's client sends nothing more; reading notices when it goes away.
  void read_until_closed() {
    stream_.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this()](boost::system::error_code ec) {
      if (self->closed()) return;
      char probe[512];
      boost::system::error_code read_error;
      const auto n = ec ? 0 : self->stream_.socket().read_some(boost::asio::buffer(probe), read_error);
      if (ec || read_error || n == 0) return self->close();
      self->read_until_closed();
    });
  }

  // An event stream when the client takes one and refuses JSON or does not name it.
  bool wants_sse() const {
    const auto accept = header(http::field::accept);
    return lists_media_type(accept, "text/event-stream") && !lists_media_type(accept, "application/json");
  }

  std::string_view header(std::string_view name) const {
    const auto it = request_.find(beast::string_view(name.data(), name.size()));
    return it == request_.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
  }
  std::string_view header(http::field field) const {
    const auto it = request_.find(field);
    return it == request_.end() ? std::string_view() : std::string_view(it->value().data(), it->value().size());
  }

  Response text_response(http::status status, std::string text) const {
    Response res{status, request_.version()};
    res.set(http::field::server, "mcpud");
    if (!text.empty()) {
      res.set(http::field::content_type, "text/plain; charset=utf-8");
      res.body() = std::move(text) + "\n";
    }
    return res;
  }

  void reply_error(http::status status, std::string message, bool keep_alive = true) {
    log::debug("http", peer_, ": ", static_cast<unsigned>(status), " ", message);
    Response res = text_response(status, std::move(message));
    if (!keep_alive) res.keep_alive(false);
    send(std::move(res));
  }

  Response json_response(http::status status, std::string body) const {
    Response res{status, request_.version()};
    res.set(http::field::server, "mcpud");
    res.set(http::field::content_type, "application/json");
    res.body() = std::move(body);
    return res;
  }

  void send_json(http::status status, std::string body) { send(json_response(status, std::move(body))); }

  // The reply as a one-event SSE stream that ends with the response.
  void send_sse_reply(std::string_view reply) {
    Response res{http::status::ok, request_.version()};
    res.set(http::field::server, "mcpud");
    res.set(http::field::content_type, "text/event-stream");
    res.set(http::field::cache_control, "no-cache");
    res.set("X-Accel-Buffering", "no");  // a proxy (nginx) passes events on as they come
    res.body() = sse_event(reply);
    send(std::move(res));
  }

  void send(Response res) {
    if (!session_id_.empty()) res.set("Mcp-Session-Id", session_id_);
    res.keep_alive(res.keep_alive() && request_.keep_alive());
    res.prepare_payload();
    // HEAD gets the headers GET would, Content-Length included, and no body
    // (RFC 9110 9.3.2): a client reads no body, so one would start the next response.
    if (request_.method() == http::verb::head) res.body().clear();
    auto shared = std::make_shared<Response>(std::move(res));
    phase_ = Phase::responding;
    http::async_write(stream_, *shared, [self = shared_from_this(), shared](beast::error_code ec, std::size_t) {
      if (ec || !shared->keep_alive()) return self->close();
      self->session_id_.clear();
      self->read_request();
    });
  }

  void queue_raw(std::string_view bytes) {
    if (closed()) return;
    outgoing_.append(bytes);
    queued_bytes_ += bytes.size();
    if (outgoing_.size() > state_->options.queue_bytes) {
      log::info("http", peer_, ": event stream dropped, ", outgoing_.size(), " bytes unread");
      return close();
    }
    if (!write_active_) write_more();
  }

  void write_more() {
    write_active_ = true;
    const auto bytes = outgoing_.next();
    boost::asio::async_write(stream_.socket(), boost::asio::buffer(bytes.data(), bytes.size()),
                             [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                               self->write_active_ = false;
                               if (self->closed()) return;
                               if (ec) return self->close();
                               self->outgoing_.consumed(n);
                               self->written_bytes_ += n;
                               std::erase_if(self->unwritten_look_agains_, [&](const auto& waiting) {
                                 return waiting.second <= self->written_bytes_;
                               });
                               if (!self->outgoing_.empty()) return self->write_more();
                               if (self->phase_ == Phase::ending) self->close();
                             });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_{kReadBufferLimit};
  std::optional<http::request_parser<http::string_body>> parser_;
  Request request_;
  std::shared_ptr<HttpServer::State> state_;
  std::string peer_;
  std::string group_;
  std::string session_id_;           // echoed on the response to a request of a session
  io::OutgoingBytes outgoing_;       // the event stream's bytes
  std::uint64_t queued_bytes_ = 0;   // ever queued on outgoing_
  std::uint64_t written_bytes_ = 0;  // ever written from it
  // "Look again" notifications queued and not yet written, with where they end (in queued_bytes_).
  std::map<std::string, std::uint64_t, std::less<>> unwritten_look_agains_;
  bool write_active_ = false;
  Phase phase_ = Phase::reading;
  std::weak_ptr<rpc::Client> pending_client_;  // whose requests those are (a session's, or a modern POST's)
  std::vector<nlohmann::json> pending_ids_;    // the POST's request ids, until they answer
  bool watching_peer_ = false;                 // watch_peer_while_waiting has a wait pending
  unsigned watch_generation_ = 0;              // tells a cancelled wait from the current one
};

std::size_t HttpServer::State::connections_of(std::string_view group) const {
  return std::count_if(connections.begin(), connections.end(), [&](const auto& entry) {
    const auto connection = entry.second.lock();
    return connection && connection->group() == group;
  });
}

HttpServer::HttpServer(boost::asio::io_context& io, HttpOptions options, rpc::Engine& engine)
    : state_(std::make_shared<State>(io, std::move(options), engine)) {}

HttpServer::~HttpServer() { close(); }

const HttpOptions& HttpServer::options() const { return state_->options; }

namespace {

// The Host rule for `options`; warns of a listener open to others without a token.
std::expected<HostRule, std::string> judge_options(const HttpOptions& options, const tcp::endpoint& endpoint) {
  auto rule = host_rule(endpoint.address(), options.allowed_hosts);
  if (!rule || endpoint.address().is_loopback()) return rule;
  if (options.token.empty()) {
    log::warn("http", "serving MCP on ", options.listen,
              " without a bearer token: anyone who can reach it controls the board");
  }
  if (!options.tls) {
    log::warn("http", "serving MCP on ", options.listen,
              " in plain HTTP: the token and every call cross the network readable; set [http] tls_cert and "
              "tls_key, or put a TLS proxy in front (docs/remote.md)");
  }
  return rule;
}

}  // namespace

std::expected<void, std::string> HttpServer::update(HttpOptions options) {
  if (options.listen != state_->options.listen) return std::unexpected("http: update cannot move the listener");
  auto endpoint = io::listen_endpoint(options.listen);
  if (!endpoint) return std::unexpected("http " + endpoint.error());
  auto rule = judge_options(options, *endpoint);
  if (!rule) return std::unexpected(rule.error());
  state_->host_rule = std::move(*rule);
  state_->options = std::move(options);
  return {};
}

std::expected<void, std::string> HttpServer::open() {
  auto endpoint = io::listen_endpoint(state_->options.listen);
  if (!endpoint) return std::unexpected("http " + endpoint.error());
  auto rule = judge_options(state_->options, *endpoint);
  if (!rule) return std::unexpected(rule.error());
  state_->host_rule = std::move(*rule);
  if (const auto ec = io::listen_tcp(state_->acceptor.socket(), *endpoint))
    return std::unexpected("cannot listen for HTTP on " + state_->options.listen + ": " + ec.message());
  if (const auto& tls = state_->options.tls) {
    log::info("http", "listening on ", local_address(), " (MCP Streamable HTTP at /mcp, HTTPS with ",
              tls->certificate_summary(), ")");
  } else {
    log::info("http", "listening on ", local_address(), " (MCP Streamable HTTP at /mcp)");
  }
  // The loop holds the state: connections and the loop may outlive the server.
  state_->acceptor.start("http", [state = state_](tcp::socket socket) {
    if (!state->closed) state->admit(std::move(socket));
  });
  state_->sweep_regularly();
  return {};
}

void HttpServer::State::admit(tcp::socket socket) {
  boost::system::error_code peer_error;
  const auto remote = socket.remote_endpoint(peer_error);
  std::string peer = peer_error ? "http peer" : io::endpoint_text(remote);
  std::string group = peer_error ? "unknown" : io::peer_group(remote.address());
  if (!has_room_for(peer, group)) return;
  if (!options.tls) return connect(std::move(socket), std::move(peer), std::move(group));
  // Limits are judged again once secured: other connections may have come meanwhile.
  options.tls->accept(std::move(socket), [state = shared_from_this(), peer = std::move(peer),
                                          group = std::move(group)](io::TlsAccepted accepted) mutable {
    using Outcome = io::TlsAccepted::Outcome;
    if (accepted.outcome == Outcome::failed) return log::info("http", peer, ": ", accepted.error);
    if (accepted.outcome == Outcome::not_tls) {
      log::info("http", peer, ": refused: plain HTTP on an HTTPS port");
      return io::refuse_plaintext(accepted.socket, kPlainHttpRefusal);
    }
    if (!state->closed && state->has_room_for(peer, group))
      state->connect(std::move(accepted.socket), std::move(peer), std::move(group));
  });
}

bool HttpServer::State::has_room_for(const std::string& peer, const std::string& group) const {
  if (connections.size() >= options.max_connections) {
    log::info("http", peer, ": refused, ", options.max_connections, " connections open");
    return false;
  }
  if (connections_of(group) >= options.max_connections_per_address) {
    log::info("http", peer, ": refused, ", options.max_connections_per_address, " connections from ", group,
              " open ([limits] max_clients_per_address)");
    return false;
  }
  return true;
}

void HttpServer::State::connect(tcp::socket socket, std::string peer, std::string group) {
  auto connection =
      std::make_shared<HttpConnection>(std::move(socket), shared_from_this(), std::move(peer), std::move(group));
  connections.emplace(connection.get(), connection);
  connection->start();
}

void HttpServer::close() {
  if (state_->closed) return;
  state_->closed = true;
  state_->acceptor.close();
  state_->sweep_timer.cancel();
  for (auto& [id, session] : state_->sessions) session->end();
  state_->sessions.clear();
  auto connections = state_->connections;  // close() removes itself from the map
  for (auto& [raw, weak] : connections) {
    if (auto connection = weak.lock()) connection->close();
  }
  // The state outlives the server (a late handler holds it); whoever listened may not.
  state_->on_change = nullptr;
}

void HttpServer::on_change(std::function<void(Change)> changed) { state_->on_change = std::move(changed); }

void HttpServer::for_each_session(const std::function<void(const rpc::Client&)>& visit) const {
  for (const auto& [id, session] : state_->sessions) visit(*session);
}

std::string HttpServer::local_address() const {
  boost::system::error_code ec;
  const auto endpoint = state_->acceptor.socket().local_endpoint(ec);
  return ec ? state_->options.listen : io::endpoint_text(endpoint);
}

}  // namespace mcpud::http
