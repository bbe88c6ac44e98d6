// SPDX-License-Identifier: MIT
// MCP methods over the shared registry; per-client state lives in ClientSession.
#include "mcpud/dialects/mcp_dialect.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

#include "mcpud/core/call_cancellation.hpp"
#include "mcpud/core/json_dispose.hpp"
#include "mcpud/core/json_text.hpp"
#include "mcpud/dialects/client_session.hpp"
#include "mcpud/dialects/mcp_request.hpp"

namespace mcpud::dialects {
namespace {

using nlohmann::json;

// Whose word a tool's hints are, for a host to weigh: said of the tools mcpud
// does not describe itself (a bridged device's).
constexpr std::string_view kMetaHintsFrom = "mcpud/hintsFrom";

json tool_entry(const Tool& tool, bool user_only) {
  json entry = json::object();
  entry["name"] = tool.name;
  if (!tool.title.empty()) entry["title"] = tool.title;
  entry["description"] = tool.description;
  entry["inputSchema"] = tool.input_schema;
  if (tool.output_schema.is_object()) entry["outputSchema"] = tool.output_schema;
  const auto& hints = tool.annotations;
  // All four, always: a host reading an absent hint takes the cautious default,
  // which would call every read destructive.
  json annotations = {{"readOnlyHint", hints.read_only},
                      {"destructiveHint", hints.destructive},
                      {"idempotentHint", hints.idempotent},
                      {"openWorldHint", hints.open_world}};
  if (!tool.title.empty()) annotations["title"] = tool.title;  // where 2025-03-26 clients look for it
  if (user_only) annotations["audience"] = json::array({"user"});
  entry["annotations"] = std::move(annotations);
  if (hints.from != HintsFrom::Mcpud)
    entry["_meta"][kMetaHintsFrom] = hints.from == HintsFrom::Device ? "device" : "nobody";
  return entry;
}

// Reads an optional string member in place ("" when absent or null); the error
// names params.<key>. The view lasts as long as `params` is not changed.
Result<std::string_view> optional_string_ref(const json& params, std::string_view key) {
  const auto it = params.find(key);
  if (it == params.end() || it->is_null()) return std::string_view();
  if (!it->is_string())
    return std::unexpected(
        Error::invalid_params("params." + std::string(key) + ": expected string, got " + it->type_name()));
  return it->get_ref<const std::string&>();
}

Result<std::string_view> required_string_ref(const json& params, std::string_view key) {
  auto value = optional_string_ref(params, key);
  if (value && value->empty())
    return std::unexpected(Error::invalid_params("params." + std::string(key) + ": required"));
  return value;
}

Result<std::string> owned(Result<std::string_view> text) {
  if (!text) return std::unexpected(std::move(text.error()));
  return std::string(*text);
}

Result<std::string> optional_string(const json& params, std::string_view key) {
  return owned(optional_string_ref(params, key));
}

Result<std::string> required_string(const json& params, std::string_view key) {
  return owned(required_string_ref(params, key));
}

json capabilities() {
  return {{"tools", {{"listChanged", true}}},
          {"resources", {{"subscribe", true}, {"listChanged", true}}},
          {"logging", json::object()}};
}

std::string instructions(const McpServer& server) {
  return "Tools of the board '" + server.device() +
         "': drive and read its pins with the listed tools. Pins are also resources "
         "(mcpu://pins/<name>) you can read and subscribe to.";
}

json server_info(const McpServer& server) { return {{"name", server.device()}, {"version", server.version}}; }

json initialize_result(const McpServer& server, const std::string& version) {
  return {{"protocolVersion", version},
          {"capabilities", capabilities()},
          {"serverInfo", server_info(server)},
          {"instructions", instructions(server)}};
}

// initialize's clientInfo as "name version" (bounded: it is shown, not trusted).
std::string client_name(const json& params) {
  const auto info = params.find("clientInfo");
  if (info == params.end() || !info->is_object()) return {};
  constexpr std::size_t kMaxBytes = 64;
  std::string name = info->value("name", json("")).is_string() ? info->value("name", "") : "";
  if (const auto version = info->value("version", json("")); version.is_string() && !version.get<std::string>().empty())
    name += " " + version.get<std::string>();
  return name.substr(0, kMaxBytes);
}

// Which eras a method belongs to: the handshake and per-connection settings are
// legacy only, server/discover modern only, the rest both.
enum class Era { Legacy, Modern, Both };

// A modern result's caching hints (2026-07-28 server/utilities/caching): how long
// a client may keep it and whether a shared cache may. See docs/mcp.md.
struct Caching {
  std::uint32_t ttl_ms = 0;
  std::string_view scope = "private";
};

using Handler = std::function<void(rpc::Client& client, const McpRequest& request, json&& params, ToolReply&& reply)>;

// What installing the methods needs; shared by every method's closure.
struct Installer {
  rpc::Dispatcher& dispatcher;
  EventHub& hub;
  std::shared_ptr<const McpServer> server;

  // Registers `name` for `era`. A modern request is checked against its _meta
  // first; its JSON result gains resultType, serverInfo and, for a cacheable
  // method, ttlMs and cacheScope. A serialized result (tools/call) has written
  // its own resultType.
  void add(std::string_view name, Era era, std::optional<Caching> caching, Handler handler) const {
    dispatcher.add_method(
        std::string(name),
        [name, era, caching, server = server, handler = std::move(handler)](rpc::Client& client, json&& params,
                                                                            ToolReply&& reply) {
          if (!names_protocol_version(params)) {
            if (era == Era::Modern)
              return reply(std::unexpected(Error::invalid_params(
                  "params._meta[\"" + std::string(kMetaProtocolVersion) + "\"]: required: " + std::string(name) +
                  " is a method of MCP 2026-07-28, whose requests name their protocol version")));
            return handler(client, legacy_request(client), std::move(params), std::move(reply));
          }
          auto request = modern_request(params);
          if (!request) return reply(std::unexpected(std::move(request.error())));
          if (era == Era::Legacy) return reply(std::unexpected(removed_in_modern(name)));
          handler(client, *request, std::move(params), modern_reply(std::move(reply), caching, server));
        },
        ErrorCodes::Mcp);
  }

  static McpRequest legacy_request(rpc::Client& client) {
    McpRequest request;
    if (const auto* session = dynamic_cast<const ClientSession*>(client.state.get())) {
      request.version = session->protocol_version;
      request.log_level = session->log_level;
    }
    return request;
  }

  static Error removed_in_modern(std::string_view name) {
    return Error::method_not_found("Method not found: " + std::string(name) +
                                   " is not part of MCP 2026-07-28 (a request without "
                                   "_meta[\"io.modelcontextprotocol/protocolVersion\"] speaks the earlier revisions)");
  }

  static ToolReply modern_reply(ToolReply reply, std::optional<Caching> caching,
                                std::shared_ptr<const McpServer> server) {
    return [reply = std::move(reply), caching, server = std::move(server)](ToolResult&& result) {
      if (result && result->is_object()) {
        auto& object = *result;
        object["resultType"] = "complete";
        object["_meta"][kMetaServerInfo] = server_info(*server);
        if (caching) {
          object["ttlMs"] = caching->ttl_ms;
          object["cacheScope"] = caching->scope;
        }
      }
      reply(std::move(result));
    };
  }
};

void install_lifecycle(const Installer& in) {
  auto& hub = in.hub;
  const auto& server = in.server;
  in.add("initialize", Era::Legacy, {},
         [&hub, server](rpc::Client& client, const McpRequest&, json&& params, ToolReply&& reply) {
           auto& session = client_session(client, hub);
           const auto requested = params.find("protocolVersion");
           const bool firmware_default = client.conventions == rpc::McpConventions::VoiceAssistant &&
                                         (requested == params.end() || requested->is_null());
           session.protocol_version = firmware_default ? std::string(kMcpVersions[0])
                                                       : negotiate_version(params.value("protocolVersion", json()));
           client.mcp_initialized = true;
           client.caller.name = client_name(params);
           reply(initialize_result(*server, session.protocol_version));
         });
  in.add("notifications/initialized", Era::Legacy, {},
         [&hub](rpc::Client& client, const McpRequest&, json&&, ToolReply&& reply) {
           client_session(client, hub);  // subscribes it to the events it is now owed
           client.mcp_initialized = true;
           reply(json::object());
         });
  in.add("ping", Era::Legacy, {},
         [](rpc::Client&, const McpRequest&, json&&, ToolReply&& reply) { reply(json::object()); });
  in.add("logging/setLevel", Era::Legacy, {},
         [&hub](rpc::Client& client, const McpRequest&, json&& params, ToolReply&& reply) {
           auto name = required_string(params, "level");
           if (!name) return reply(std::unexpected(name.error()));
           const auto level = parse_mcp_log_level(*name);
           if (!level)
             return reply(std::unexpected(
                 Error::invalid_params("params.level: '" + *name + "' is not an MCP log level (debug ... emergency)")));
           client_session(client, hub).log_level = *level;
           reply(json::object());
         });
  // The device name (instructions, serverInfo) changes only on a reload.
  in.add("server/discover", Era::Modern, Caching{kDiscoverTtlMs, "public"},
         [server](rpc::Client&, const McpRequest&, json&&, ToolReply&& reply) {
           reply(json{{"supportedVersions", supported_versions()},
                      {"capabilities", capabilities()},
                      {"instructions", instructions(*server)}});
         });
}

void install_tools(const Installer& in) {
  auto& registry = in.dispatcher.registry();
  const auto& server = in.server;
  // Bridged devices come and go (hot-plug): a short freshness, the change notified too.
  in.add("tools/list", Era::Both, Caching{kToolsListTtlMs, "public"},
         [&registry, server](rpc::Client&, const McpRequest&, json&& params, ToolReply&& reply) {
           // Hosts list once, right after start: a bridged device still being discovered would be missed.
           auto list = [&registry, server, params = std::move(params), reply = std::move(reply)] {
             reply(list_tools_page(registry, params, server->page_bytes()));
           };
           if (server->when_tools_settled) return server->when_tools_settled(std::move(list));
           list();
         });
  in.add("tools/call", Era::Both, {},
         [&registry](rpc::Client& client, const McpRequest& request, json&& params, ToolReply&& reply) {
           auto name = required_string_ref(params, "name");  // in params, which outlive the call below
           if (!name) return reply(std::unexpected(name.error()));
           if (!registry.contains(*name)) {
             // The MCP specification's example uses -32602; the voice-assistant firmware answers -32601.
             const std::string message = "Unknown tool: " + std::string(*name);
             auto unknown = !request.modern && client.conventions == rpc::McpConventions::VoiceAssistant
                                ? Error::method_not_found(message)
                                : Error::invalid_params(message);
             return reply(std::unexpected(std::move(unknown)));
           }
           json arguments;  // null: no arguments, an empty object to the registry
           if (const auto given = params.find("arguments"); given != params.end()) arguments = std::move(*given);
           if (arguments.is_null()) arguments = json::object();
           if (!arguments.is_object()) {
             return reply(std::unexpected(Error::invalid_params(std::string("params.arguments: expected object, got ") +
                                                                arguments.type_name())));
           }
           const CallResultForm form{
               .input_errors_as_results =
                   request.modern || (!request.version.empty() && request.version >= kInputErrorsAsResultsSince),
               .modern = request.modern};
           registry.call(
               client.caller, *name, std::move(arguments),
               [reply = std::move(reply), form](ToolResult&& r) { reply(call_result(std::move(r), form)); },
               "arguments");
         });
}

json resource_templates() {
  return {{{"uriTemplate", "mcpu://pins/{name}"},
           {"name", "pin"},
           {"mimeType", "application/json"},
           {"description", "A board pin: its type and current value"}},
          {{"uriTemplate", "mcpu://serial/{session_id}"},
           {"name", "serial session"},
           {"mimeType", "application/json"},
           {"description", "Data received by an open serial session (subscribe only)"}}};
}

// A resource that does not exist: -32002 in the legacy era, -32602 in the modern
// one (which forbids -32002), with data.uri in both.
Error resource_not_found(Error error, const std::string& uri, bool modern) {
  error.code = modern ? rpc_code::kInvalidParams : kMcpResourceNotFound;
  error.uri = uri;
  return error;
}

void install_resources(const Installer& in) {
  const auto& server = in.server;
  auto& hub = in.hub;
  // The pins of the configuration and the daemon's own resources: they change on a reload.
  in.add("resources/list", Era::Both, Caching{kResourcesListTtlMs, "public"},
         [server](rpc::Client&, const McpRequest&, json&&, ToolReply&& reply) {
           reply(json{{"resources", server->list_resources()}});
         });
  // Fixed by this build of mcpud.
  in.add("resources/templates/list", Era::Both, Caching{kTemplatesTtlMs, "public"},
         [](rpc::Client&, const McpRequest&, json&&, ToolReply&& reply) {
           reply(json{{"resourceTemplates", resource_templates()}});
         });
  // Live values (a pin read now, a session's data): never fresh, and a serial
  // session's data is its opener's.
  in.add("resources/read", Era::Both, Caching{0, "private"},
         [server](rpc::Client&, const McpRequest& request, json&& params, ToolReply&& reply) {
           auto uri = required_string(params, "uri");
           if (!uri) return reply(std::unexpected(uri.error()));
           server->read_resource(*uri, [uri = *uri, modern = request.modern,
                                        reply = std::move(reply)](Result<json> value) {
             if (!value) {
               auto error = std::move(value.error());
               if (error.name == domain_error_name(DomainError::ResourceNotFound))
                 error = resource_not_found(std::move(error), uri, modern);
               return reply(std::unexpected(std::move(error)));
             }
             reply(json{{"contents", {{{"uri", uri}, {"mimeType", "application/json"}, {"text", rpc::dump(*value)}}}}});
           });
         });
  for (const bool subscribe : {true, false}) {
    in.add(subscribe ? "resources/subscribe" : "resources/unsubscribe", Era::Legacy, {},
           [&hub, server, subscribe](rpc::Client& client, const McpRequest&, json&& params, ToolReply&& reply) {
             auto uri = required_string(params, "uri");
             if (!uri) return reply(std::unexpected(uri.error()));
             if (auto ok = check_subscribable(*uri, "params.uri"); !ok) return reply(std::unexpected(ok.error()));
             if (subscribe && !server->resource_exists(*uri, client.caller)) {
               Error missing{kMcpResourceNotFound, "Resource not found: " + *uri,
                             std::string(domain_error_name(DomainError::ResourceNotFound)), *uri};
               return reply(std::unexpected(std::move(missing)));
             }
             if (auto done = client_session(client, hub).set_subscribed(*uri, subscribe); !done)
               return reply(std::unexpected(done.error()));
             reply(json::object());
           });
  }
}

// subscriptions/listen's filter: what mcpud honours of it (prompts it has
// none of; URIs that name no resource the client may watch are left out).
Result<Listen> listen_filter(const json& params, const McpServer& server, const Caller& caller, json id) {
  Listen listen{.id = std::move(id)};
  const auto filter = params.find("notifications");
  if (filter == params.end() || filter->is_null()) return listen;
  if (!filter->is_object())
    return std::unexpected(
        Error::invalid_params(std::string("params.notifications: expected object, got ") + filter->type_name()));
  for (const auto& [key, flag] :
       {std::pair{"toolsListChanged", &listen.tools}, {"resourcesListChanged", &listen.resources}}) {
    const auto it = filter->find(key);
    if (it == filter->end() || it->is_null()) continue;
    if (!it->is_boolean())
      return std::unexpected(Error::invalid_params("params.notifications." + std::string(key) +
                                                   ": expected boolean, got " + it->type_name()));
    *flag = it->get<bool>();
  }
  const auto uris = filter->find("resourceSubscriptions");
  if (uris == filter->end() || uris->is_null()) return listen;
  if (!uris->is_array())
    return std::unexpected(Error::invalid_params(
        std::string("params.notifications.resourceSubscriptions: expected array, got ") + uris->type_name()));
  for (const auto& uri : *uris) {
    if (!uri.is_string())
      return std::unexpected(Error::invalid_params("params.notifications.resourceSubscriptions: expected strings"));
    const auto& text = uri.get_ref<const std::string&>();
    if (check_subscribable(text, "uri") && server.resource_exists(text, caller)) listen.uris.insert(text);
  }
  return listen;
}

json acknowledged(const Listen& listen) {
  json honoured = json::object();
  if (listen.tools) honoured["toolsListChanged"] = true;
  if (listen.resources) honoured["resourcesListChanged"] = true;
  if (!listen.uris.empty()) honoured["resourceSubscriptions"] = listen.uris;
  return {{"_meta", {{kMetaSubscriptionId, listen.id}}}, {"notifications", std::move(honoured)}};
}

// subscriptions/listen (2026-07-28): acknowledged first, then the notifications
// asked for, tagged with the request's id, until notifications/cancelled (or
// the client leaving) ends it. Its state is the request's, kept in the client's
// session only so that events find it.
void install_subscriptions(const Installer& in) {
  auto& hub = in.hub;
  const auto& server = in.server;
  in.add("subscriptions/listen", Era::Modern, {},
         [&hub, server](rpc::Client& client, const McpRequest&, json&& params, ToolReply&& reply) {
           auto* call = CallCancellation::current();
           if (!call || !call->request_id() || call->request_id()->is_null())
             return reply(std::unexpected(Error::invalid_request("subscriptions/listen must be a request with an id")));
           auto listen = listen_filter(params, *server, client.caller, *call->request_id());
           if (!listen) return reply(std::unexpected(std::move(listen.error())));
           auto& session = client_session(client, hub);
           const auto key = rpc::dump(listen->id);
           const json ack = acknowledged(*listen);
           if (auto added = session.add_listen(key, std::move(*listen)); !added)
             return reply(std::unexpected(std::move(added.error())));
           client.notify("notifications/subscriptions/acknowledged", ack);
           // Ended by the client: the stream goes, and the request is answered (the engine drops that answer).
           call->on_cancel([alive = std::weak_ptr<int>(session.alive), raw = &session, key,
                            reply = std::make_shared<ToolReply>(std::move(reply))] {
             if (alive.lock()) raw->end_listen(key);
             (*reply)(json{{"_meta", {{kMetaSubscriptionId, json::parse(key)}}}});
           });
         });
}

// A modern request for a method no dialect serves: MCP/U calls tools by their
// name as methods, MCP 2026-07-28 has no such method.
bool refuse_unrouted_modern(std::string_view method, const json& params, ToolReply& reply) {
  if (!names_protocol_version(params)) return false;
  auto request = modern_request(params);
  if (!request) {
    reply(std::unexpected(std::move(request.error())));
    return true;
  }
  reply(std::unexpected(Error::method_not_found("Method not found: " + std::string(method))));
  return true;
}

}  // namespace

std::string negotiate_version(const json& requested) {
  for (const auto version : kMcpVersions) {
    if (requested.is_string() && requested.get_ref<const std::string&>() == version) return std::string(version);
  }
  return std::string(std::end(kMcpVersions)[-1]);
}

Result<json> list_tools_page(const ToolRegistry& registry, const json& params, std::size_t page_bytes) {
  auto cursor = optional_string(params, "cursor");
  if (!cursor) return std::unexpected(cursor.error());
  const auto with_user = params.find("withUserTools");
  if (with_user != params.end() && !with_user->is_boolean()) {
    return std::unexpected(
        Error::invalid_params(std::string("params.withUserTools: expected boolean, got ") + with_user->type_name()));
  }
  const bool include_user = with_user != params.end() && with_user->get<bool>();
  const auto& tools = registry.tools();
  auto it = tools.begin();
  if (!cursor->empty()) {
    // The cursor is the name of the first tool of the page, so it survives tools coming and going before it.
    it = std::find_if(tools.begin(), tools.end(), [&](const auto& t) { return t->name == *cursor; });
    if (it == tools.end())
      return std::unexpected(Error::invalid_params(
          "params.cursor: '" + *cursor + "' is not a valid cursor (the tool set changed; list again from the start)"));
  }
  json page = json::array();
  std::size_t used = 0;
  for (; it != tools.end(); ++it) {
    const bool hidden_user_tool = registry.is_user_only(**it);
    if (hidden_user_tool && !include_user) continue;
    json entry = tool_entry(**it, hidden_user_tool);
    const std::size_t size = rpc::dump(entry).size() + 1;
    if (!page.empty() && used + size > page_bytes) break;
    used += size;
    page.push_back(std::move(entry));
  }
  json result = {{"tools", std::move(page)}};
  if (it != tools.end()) result["nextCursor"] = (*it)->name;
  return result;
}

namespace {

// The most capacity call_result's scratch text keeps between calls.
constexpr std::size_t kKeptValueBytes = 64 * 1024;

// The error outcomes that stay results (rare): built as a value.
ToolResult error_call_result(const Error& e, bool modern) {
  json item = json::object();
  item["type"] = "text";
  item["text"] = e.name.empty() ? e.message : e.name + ": " + e.message;
  json result = json::object();
  result["content"] = json::array({std::move(item)});
  result["isError"] = true;
  if (modern) result["resultType"] = "complete";
  return result;
}

// The MCP result of a tool's serialized result `value`: the text content
// (escaped) and, for an object, structuredContent. The members are in the
// order a json object keeps them (sorted).
rpc::JsonBytes mcp_result_text(std::string_view value, bool modern) {
  rpc::JsonBytes text;
  text.reserve(2 * value.size() + 128);
  rpc::append_text(text, R"({"content":[{"text":)");
  rpc::append_json_string(text, value);
  rpc::append_text(text, R"(,"type":"text"}],"isError":false)");
  if (modern) rpc::append_text(text, R"(,"resultType":"complete")");
  if (value.starts_with('{')) {  // an object: serialized text has no leading space
    rpc::append_text(text, R"(,"structuredContent":)");
    rpc::append_text(text, value);
  }
  rpc::append_text(text, "}");
  return text;
}

}  // namespace

ToolResult call_result(ToolResult outcome, CallResultForm form) {
  if (!outcome) {
    const int code = outcome.error().code;
    if (code == rpc_code::kMethodNotFound) return outcome;
    if (code == rpc_code::kInvalidParams && !form.input_errors_as_results) return outcome;
    return error_call_result(outcome.error(), form.modern);
  }
  // tools/call is the MCP hot path: the result is serialized once and that text
  // spliced in twice (mcp_result_text), into the bytes the reply carries.
  if (rpc::is_serialized_result(*outcome)) {  // a tool that answers with text (Tool::invoke_as_text)
    auto& bytes = outcome->get_binary();
    auto text = mcp_result_text({reinterpret_cast<const char*>(bytes.data()), bytes.size()}, form.modern);
    static_cast<rpc::JsonBytes&>(bytes) = std::move(text);  // the holder is reused, the tool's text freed
    return outcome;
  }
  thread_local std::string value;  // reused: its capacity stays from call to call
  value.clear();
  rpc::append_dump(value, *outcome);
  dispose(*outcome);  // freed in place, not by nlohmann's flattening (json_dispose.hpp)
  auto text = mcp_result_text(value, form.modern);
  if (value.capacity() > kKeptValueBytes) std::string().swap(value);  // a large result's buffer is not kept
  return rpc::serialized_result(std::move(text));
}

void install_mcp_dialect(rpc::Dispatcher& dispatcher, EventHub& hub, McpServer server) {
  const Installer installer{dispatcher, hub, std::make_shared<const McpServer>(std::move(server))};
  install_lifecycle(installer);
  install_tools(installer);
  install_resources(installer);
  install_subscriptions(installer);
  dispatcher.on_unrouted(refuse_unrouted_modern);
}

}  // namespace mcpud::dialects
